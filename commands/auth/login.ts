// collab auth login: check a token with GET /user and store it, with the username, for the host; with --username, get
// an OAuth token through the password grant (collab serve, or an instance that allows it) and store that.
import { Option, type Command, type OptionValues } from 'commander'
import { isApiError } from '../../src/client/errors.js'
import { route } from '../../src/client/paths.js'
import type { Runtime } from '../../src/cli/command.js'
import { normalizeHost, saveHostToken } from '../../src/cli/config.js'
import { authRequired, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { defaultHost, explicitHost } from '../../src/cli/resolve.js'

export interface LoginOptions {
  host?: string
  token?: string
  withToken: boolean
  username?: string
  passwordStdin: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('login')
    .description('Check a personal access token with the instance and store it')
    .option('--host <url>', 'the instance, e.g. http://127.0.0.1:3000 (default: COLLAB_HOST, GITLAB_HOST, the configured host)')
    .option('--token <token>', 'the personal access token')
    .addOption(new Option('--with-token', 'read the token from standard input').conflicts('token'))
    .addOption(new Option('-u, --username <user>', 'sign in with a password instead (OAuth password grant); asked for on a terminal').conflicts(['token', 'withToken']))
    .option('--password-stdin', 'with --username: read the password from standard input')
    .action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): LoginOptions => ({
  host: flags.host, token: flags.token, withToken: flags.withToken === true, username: flags.username, passwordStdin: flags.passwordStdin === true,
})

const stored = (where: 'keyring' | 'config') => (where === 'keyring' ? 'token stored in the OS keyring' : 'token stored in config.json')

/** The password grant, then the same check as for a token; the OAuth token is stored with what renews it. */
async function loginWithPassword(options: LoginOptions & { username: string }, host: string, deps: Deps): Promise<void> {
  const password = options.passwordStdin
    ? (await deps.io.readStdin()).replace(/\r?\n$/, '')
    : await deps.prompter.password(`Password of ${options.username} on ${host}`, '--password-stdin')
  if (!password) throw usageError('the password is empty')
  const { passwordGrant } = await import('../../src/cli/oauth.js')
  const oauth = await passwordGrant(deps.clientFor(host), options.username, password, deps.io.now?.())
  const user = await deps.clientFor(host, { token: oauth.token, header: 'Authorization', source: 'login' }).get(route('getCurrentUser', {}))
  const where = await saveHostToken(await deps.configDir, host, oauth.token, user.username, false, oauth.extra, deps.io.env)
  status(deps.io, `Logged in to ${host} as ${user.username} (an OAuth token${oauth.extra.expires_at ? ', renewed when it expires' : ''}; ${stored(where)})`)
}

async function chooseHost(options: LoginOptions, deps: Deps): Promise<string> {
  if (options.host) return normalizeHost(options.host)
  const known = explicitHost({}, deps.io.env) ?? defaultHost(await deps.config())
  if (known) return known.value
  return normalizeHost(await deps.prompter.input('Host URL', '--host', 'http://127.0.0.1:3000'))
}

export async function run(options: LoginOptions, deps: Deps): Promise<void> {
  const host = await chooseHost(options, deps)
  if (options.username !== undefined) return loginWithPassword({ ...options, username: options.username }, host, deps)
  if (options.passwordStdin) throw usageError('--password-stdin goes with --username')
  const token = (
    options.token ??
    (options.withToken ? await deps.io.readStdin() : await deps.prompter.password(`Personal access token for ${host}`, '--token or --with-token'))
  ).trim()
  if (!token) throw usageError('the token is empty')

  let user: { username: string }
  try {
    user = await deps.clientFor(host, { token, header: 'PRIVATE-TOKEN', source: 'login' }).get(route('getCurrentUser', {}))
  } catch (err) {
    if (isApiError(err) && err.status === 401) {
      throw authRequired(`${host} rejected the token (${err.message})`, 'use a personal access token with the api scope')
    }
    throw err
  }
  const where = await saveHostToken(await deps.configDir, host, token, user.username, false, {}, deps.io.env)
  status(deps.io, `Logged in to ${host} as ${user.username} (${stored(where)})`)
}
