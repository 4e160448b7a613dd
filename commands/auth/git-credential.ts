// collab auth git-credential: a git credential helper answering with the stored token of the matching instance,
// so `git push` works in clones of collab and GitLab projects without the token in any URL or file.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import { normalizeHost } from '../../src/cli/config.js'
import type { Deps } from '../../src/cli/factory.js'
import { explicitHost } from '../../src/cli/resolve.js'

export interface GitCredentialOptions {
  operation: string
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('git-credential')
    .description('Answer git credential requests with the stored token')
    .argument('<operation>', 'get, store or erase (git passes it)')
    .action((operation: string, _flags: OptionValues) => rt.invoke(command, run, toOptions(operation)))
}

export const toOptions = (operation: string): GitCredentialOptions => ({ operation })

/** git's credential protocol: `key=value` lines on stdin, ended by a blank line or EOF. */
export function parseCredentialRequest(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of text.split('\n')) {
    if (line === '') break
    const i = line.indexOf('=')
    if (i > 0) out[line.slice(0, i)] = line.slice(i + 1)
  }
  return out
}

export async function run(options: GitCredentialOptions, deps: Deps): Promise<void> {
  // store and erase are git telling us what it did; the token stays managed by `collab auth`.
  if (options.operation !== 'get') return
  const request = parseCredentialRequest(await deps.io.readStdin())
  if (!request.protocol || !request.host) return
  const wanted = normalizeHost(`${request.protocol}://${request.host}`)
  const config = await deps.config()
  // Only instances the CLI knows (configured, or named by COLLAB_HOST/GITLAB_HOST) get a token: never any host git asks about.
  const configured = Object.keys(config.hosts).find((host) => normalizeHost(host) === wanted)
  const named = explicitHost({}, deps.io.env)
  const host = configured ?? (named && normalizeHost(named.value) === wanted ? wanted : undefined)
  const token = host === undefined ? undefined : await deps.tokenFor(host)
  // Answering nothing lets git fall back to its other helpers or a prompt.
  if (!token) return
  const username = token.header === 'JOB-TOKEN' ? 'gitlab-ci-token' : 'oauth2'
  deps.io.stdout.write(`protocol=${request.protocol}\nhost=${request.host}\nusername=${username}\npassword=${token.token}\n`)
}
