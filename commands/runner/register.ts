// collab runner register --url URL --token glrt-…: checks the runner's token (or registers with a legacy registration
// token) and adds the runner to the configuration, as `gitlab-runner register` does.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { failure, missingFlag, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { writeRunnerConfig, type ExecutorKind } from '../../src/runner/config.js'
import { connectionTo, loadConfig, withConfigFile } from './shared.js'

export interface RegisterOptions {
  url?: string
  token?: string
  registrationToken?: string
  name?: string
  executor: ExecutorKind
  tags?: string
  config?: string
}

export function register(group: Command, rt: Runtime): void {
  const command = withConfigFile(group.command('register').description('Add a runner to the configuration: its token from collab serve or GitLab (glrt-…)'))
    .option('--url <url>', 'the server, e.g. http://127.0.0.1:3000')
    .option('--token <token>', "the runner's authentication token (glrt-…), made by POST /user/runners or the web")
    .option('--registration-token <token>', 'a registration token instead (the deprecated flow): a runner is created with it')
    .option('--name <name>', 'a name for this runner (default: the host name)')
    .option('--executor <kind>', 'sandbox (bubblewrap, the default) or shell (no isolation: jobs run as you)', 'sandbox')
    .option('--tag-list <tags>', 'with --registration-token: tags of the new runner, comma-separated')
  command.action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): RegisterOptions => ({
  url: flags.url, token: flags.token, registrationToken: flags.registrationToken, name: flags.name, executor: flags.executor,
  tags: flags.tagList, config: flags.config,
})

export async function run(options: RegisterOptions, deps: Deps): Promise<void> {
  if (!options.url) throw missingFlag('--url')
  if (!options.token && !options.registrationToken) throw missingFlag('--token')
  if (options.executor !== 'sandbox' && options.executor !== 'shell') throw usageError(`--executor: expected sandbox or shell, got '${options.executor}'`)
  let url: string
  try {
    url = new URL(options.url).toString().replace(/\/+$/, '')
  } catch {
    throw usageError(`--url: not a URL: '${options.url}'`)
  }
  const connection = connectionTo(url, options.executor, options.name)
  let token = options.token
  let id: number | undefined
  if (!token) {
    const created = await connection.register(options.registrationToken!, options.tags ? { tag_list: options.tags } : {})
    token = created.token
    id = created.id
  } else if (!(await connection.verify(token))) {
    throw failure(`${url} does not know this runner token`, 'create a runner with POST /api/v4/user/runners (or in GitLab: Settings > CI/CD > Runners) and use its glrt- token')
  }
  const { file, config } = await loadConfig(deps, options.config)
  const name = options.name ?? connectionName(url, config.runners.length)
  config.runners = [...config.runners.filter((r) => !(r.url === url && r.token === token)), { name, url, token, id, executor: options.executor }]
  await writeRunnerConfig(file, config)
  status(deps.io, `Registered runner ${name} for ${url} (${options.executor} executor) in ${file}`)
}

const connectionName = (url: string, n: number) => `${new URL(url).host}-${n + 1}`
