// collab project clone <project> [dir]: `git clone` over HTTP with the CLI's token, leaving no token in the clone.
import { resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { positiveInt, withConnection, type Runtime } from '../../src/cli/command.js'
import { getConfigValue } from '../../src/cli/config-keys.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { Env } from '../../src/cli/io.js'
import { status } from '../../src/cli/output.js'
import type { TokenHeader } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { Project } from './shared.js'

export interface CloneOptions {
  project: string
  dir?: string
  branch?: string
  depth?: number
  /** The project's wiki repository (`<project>.wiki.git`) instead of its code (collab wiki clone). */
  wiki?: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('clone')
    .description("Clone a project's repository with git, using the CLI's credentials")
    .argument('<project>', 'project id, path (group/project) or URL')
    .argument('[dir]', 'the directory to clone into (default: the project path\'s last part)')
    .option('-b, --branch <branch>', 'check out this branch instead of the default one')
    .option('--depth <n>', 'a shallow clone of this many commits', positiveInt)
  withConnection(command).action((project: string, dir: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, dir, flags)))
}

export const toOptions = (project: string, dir: string | undefined, flags: OptionValues): CloneOptions => ({
  project,
  dir,
  branch: flags.branch,
  depth: flags.depth,
})

/**
 * The credentials travel as an `http.<repo-url>.extraHeader` set through GIT_CONFIG_COUNT/KEY/VALUE (git 2.31+):
 * - not in the URL, so `origin` is the clean http_url_to_repo and nothing is written into .git/config;
 * - not as `git -c …` on the command line, which other users of the machine can read in `ps`;
 * - scoped to the repository's URL, so a redirect or a submodule on another host never receives it.
 * GitLab's convention for the user name: `oauth2` for a personal token, `gitlab-ci-token` for a job token.
 * Existing GIT_CONFIG_COUNT entries of the caller are kept; ours is appended.
 */
export function gitAuthEnv(env: Env, repoUrl: string, credentials: { token: string; header: TokenHeader }): Record<string, string> {
  const user = credentials.header === 'JOB-TOKEN' ? 'gitlab-ci-token' : 'oauth2'
  const basic = Buffer.from(`${user}:${credentials.token}`).toString('base64')
  const index = Number(env.GIT_CONFIG_COUNT) || 0
  return {
    GIT_CONFIG_COUNT: String(index + 1),
    [`GIT_CONFIG_KEY_${index}`]: `http.${repoUrl}.extraHeader`,
    [`GIT_CONFIG_VALUE_${index}`]: `Authorization: Basic ${basic}`,
  }
}

/** Where git clones to when no directory is given: the URL's last part without `.git`. */
const defaultDir = (url: string) => url.replace(/\/+$/, '').split(/[/:]/).pop()!.replace(/\.git$/, '')

export async function run(options: CloneOptions, deps: Deps): Promise<void> {
  // Public projects clone without logging in, as with git itself.
  const { api, ref } = await deps.project(options.project, { anonymous: true })
  const project = await api.get(route('getProject', { id: ref }))
  const ssh = getConfigValue(await deps.config(), 'git_protocol', api.host) === 'ssh'
  const repoUrl = ssh ? project.ssh_url_to_repo : project.http_url_to_repo
  const url = options.wiki ? repoUrl.replace(/\.git$/, '.wiki.git') : repoUrl
  const credentials = ssh ? undefined : api.credentials()
  // The token goes only where the API lives, as the client's own requests do.
  const sameHost = ssh || new URL(url).origin === new URL(api.host).origin
  if (credentials && !sameHost) status(deps.io, `warning: ${url} is not on ${api.host}; cloning without credentials`)
  const env: Record<string, string | undefined> = {
    ...deps.io.env,
    // A rejected token fails the clone instead of leaving git waiting for a password.
    GIT_TERMINAL_PROMPT: '0',
    ...(credentials && sameHost ? gitAuthEnv(deps.io.env, url, credentials) : {}),
  }
  const args = ['clone', ...(options.branch ? ['--branch', options.branch] : []), ...(options.depth ? ['--depth', String(options.depth)] : []), '--', url]
  if (options.dir !== undefined) args.push(options.dir)
  const { execa } = await import('execa')
  // git's progress and messages go straight to the terminal (stderr); nothing is read from stdin.
  const result = await execa('git', args, { cwd: deps.io.cwd, env, extendEnv: false, stdin: 'ignore', stdout: 'inherit', stderr: 'inherit', reject: false })
  if ((result as { code?: string }).code === 'ENOENT') throw failure('git is not installed or not on the PATH', 'install git, then run the command again')
  if (result.exitCode !== 0) throw failure(`git clone of ${project.path_with_namespace} failed (exit code ${result.exitCode ?? result.signal})`)
  if (!credentials || !sameHost) return
  // `git push` in the clone asks collab for the token (the clone itself keeps none), scoped to this repository's URL.
  const dir = resolve(deps.io.cwd, options.dir ?? defaultDir(url))
  const origin = new URL(url).origin
  const helper = await execa('git', ['-C', dir, 'config', `credential.${origin}.helper`, '!collab auth git-credential'], { env: deps.io.env, extendEnv: false, reject: false })
  if (helper.exitCode === 0) status(deps.io, `git push in ${options.dir ?? defaultDir(url)} uses collab's stored token (credential helper set for ${origin})`)
  else status(deps.io, `to push, run: git -C ${dir} config credential.helper '!collab auth git-credential'`)
}
