// collab variable set <key> [value]: create a CI/CD variable (a project's, --group's or --instance's), or update the
// one with this key (and --scope).
import { Option, type Command, type OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { readText } from '../../src/cli/sources.js'
import { isApiError } from '../../src/client/errors.js'
import { onVariable, ownerOf, scopeFilter, variableRoute, variableTarget, type OwnerOptions } from './shared.js'

export interface SetOptions extends OwnerOptions {
  key: string
  value?: string
  valueFile?: string
  scope?: string
  fields: { variable_type?: string; protected?: boolean; masked?: boolean; raw?: boolean; description?: string }
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onVariable(group.command('set').description('Create or update a CI/CD variable')))
    .argument('[value]', 'the value (or --value-file)')
    .option('-f, --value-file <file>', "read the value from a file; '-' reads stdin")
    .addOption(new Option('-t, --type <type>', 'env_var (the default) or file').choices(['env_var', 'file']))
    .option('--protected', 'only on protected branches and tags')
    .option('--no-protected', 'on every ref')
    .option('--masked', 'hidden in job logs')
    .option('--no-masked', 'shown in job logs')
    .option('--raw', 'not expanded ($OTHER stays as is)')
    .option('--no-raw', 'expanded')
    .option('-d, --description <text>', 'what the variable is for')
  command.action((key: string, value: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(key, value, flags)))
}

export const toOptions = (key: string, value: string | undefined, flags: OptionValues): SetOptions => ({
  ...ownerOf(flags), key, value, valueFile: flags.valueFile, scope: flags.scope,
  fields: { variable_type: flags.type, protected: flags.protected, masked: flags.masked, raw: flags.raw, description: flags.description },
  json: flags.json === true,
})

const taken = (err: unknown) => isApiError(err) && err.status === 400 && /has already been taken/.test(JSON.stringify(err.body))

export async function run(options: SetOptions, deps: Deps): Promise<void> {
  if ((options.value === undefined) === (options.valueFile === undefined)) throw usageError('pass the value, or --value-file FILE, but not both')
  const value = options.value ?? (await readText(options.valueFile!, '--value-file', deps.io))
  const target = await variableTarget(options, deps, options.scope)
  const fields = { value, ...options.fields, environment_scope: options.scope }
  const json = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
  try {
    const response = await target.api.call(variableRoute(target, 'create'), { json: { key: options.key, ...json } })
    return reportWrite(deps.io, options.json, response, `Created variable ${options.key} in ${target.where}`)
  } catch (err) {
    if (!taken(err)) throw err
  }
  const response = await target.api.call(variableRoute(target, 'update', options.key), { json, query: scopeFilter(options.scope) })
  reportWrite(deps.io, options.json, response, `Updated variable ${options.key} in ${target.where}`)
}
