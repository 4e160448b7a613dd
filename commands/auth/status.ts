// collab auth status: for every known host, whether its token works and whose it is (exit 1 when one does not).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { authRequired } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printTable, type Column } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { explicitHost } from '../../src/cli/resolve.js'

export interface StatusOptions {
  json: boolean
}

export interface HostStatus {
  host: string
  user: string | null
  token_source: string | null
  ok: boolean
  error: string | null
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(group.command('status').description('Check the stored tokens against their instances'))
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): StatusOptions => ({ json: flags.json === true })

async function check(host: string, deps: Deps): Promise<HostStatus> {
  const token = await deps.tokenFor(host)
  if (!token) return { host, user: null, token_source: null, ok: false, error: 'no token' }
  try {
    const user = await deps.clientFor(host, token).get(route('getCurrentUser', {}))
    return { host, user: user.username, token_source: token.source, ok: true, error: null }
  } catch (err) {
    return { host, user: null, token_source: token.source, ok: false, error: (err as Error).message }
  }
}

export async function run(options: StatusOptions, deps: Deps): Promise<number> {
  const config = await deps.config()
  const hosts = [...new Set([explicitHost({}, deps.io.env)?.value, ...Object.keys(config.hosts)].filter((h): h is string => !!h))]
  if (hosts.length === 0) throw authRequired('not logged in to any instance', "run 'collab auth login --host URL'")
  const results = await Promise.all(hosts.map((host) => check(host, deps)))
  if (options.json) {
    deps.io.stdout.write(`${JSON.stringify(results, null, 2)}\n`)
  } else {
    const { color } = deps.io
    const columns: Column<HostStatus>[] = [
      { header: 'HOST', value: (r) => r.host, style: (text, r) => (r.host === config.default_host ? color.bold(text) : text) },
      { header: 'USER', value: (r) => r.user },
      { header: 'TOKEN', value: (r) => r.token_source },
      { header: 'STATUS', value: (r) => (r.ok ? 'ok' : r.error), style: (text, r) => (r.ok ? color.green(text) : color.red(text)) },
    ]
    await printTable(deps.io, columns, results)
  }
  return results.every((r) => r.ok) ? 0 : 1
}
