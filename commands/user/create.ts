// collab user create: a new user (administrators), with a password, or a random one the user resets.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { readText } from '../../src/cli/sources.js'
import { route } from '../../src/client/paths.js'

export interface CreateOptions {
  username?: string
  email?: string
  name?: string
  passwordFile?: string
  randomPassword: boolean
  fields: { admin?: boolean; external?: boolean; can_create_group?: boolean; projects_limit?: number; skip_confirmation?: boolean }
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group.command('create').description('Create a user (administrators)')
    .option('-u, --username <username>', 'the username (also the personal namespace)')
    .option('-e, --email <email>', 'the primary email')
    .option('-n, --name <name>', 'the full name (the username when left out)')
    .option('--password-file <file>', "read the password from a file; '-' reads stdin (a password never goes on the command line)")
    .option('--random-password', 'set a random password the user must reset')
    .option('--admin', 'make the user an administrator')
    .option('--external', 'an external user (sees only projects they are a member of)')
    .option('--no-create-group', 'may not create top-level groups')
    .option('--projects-limit <n>', 'how many personal projects the user may create', (v) => Number.parseInt(v, 10))
  withJson(withConnection(command)).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): CreateOptions => ({
  username: flags.username, email: flags.email, name: flags.name, passwordFile: flags.passwordFile,
  randomPassword: flags.randomPassword === true,
  fields: {
    admin: flags.admin, external: flags.external, can_create_group: flags.createGroup === false ? false : undefined,
    projects_limit: flags.projectsLimit, skip_confirmation: true,
  },
  json: flags.json === true,
})

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  if (options.passwordFile !== undefined && options.randomPassword) throw usageError('pass --password-file FILE or --random-password, not both')
  // Asked at a terminal, named as a missing flag otherwise.
  const username = options.username ?? (await deps.prompter.input('Username', '--username'))
  const email = options.email ?? (await deps.prompter.input('Email', '--email'))
  const password = options.randomPassword ? undefined : options.passwordFile !== undefined
    ? (await readText(options.passwordFile, '--password-file', deps.io)).replace(/\r?\n$/, '')
    : await deps.prompter.password('Password', '--password-file')
  const api = await deps.api()
  const fields = Object.fromEntries(Object.entries(options.fields).filter(([, v]) => v !== undefined))
  const body = {
    username, email, name: options.name ?? username, ...fields,
    ...(password === undefined ? { force_random_password: true } : { password }),
  }
  const response = await api.call(route('createUser', {}), { json: body })
  const created = JSON.parse(response.text) as { id: number }
  reportWrite(deps.io, options.json, response, `Created user ${username} (id ${created.id})`)
}
