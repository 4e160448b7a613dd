// collab variable get <key>: a variable's value alone (for `$(collab variable get KEY)`), or the API's JSON.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { onVariable, ownerOf, scopeFilter, variableRoute, variableTarget, type OwnerOptions, type Variable } from './shared.js'

export interface GetOptions extends OwnerOptions { key: string; scope?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onVariable(group.command('get').description("Print a CI/CD variable's value")))
  command.action((key: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, flags)))
}

export const toOptions = (key: string, flags: OptionValues): GetOptions => ({ ...ownerOf(flags), key, scope: flags.scope, json: flags.json === true })

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const target = await variableTarget(options, deps, options.scope)
  const response = await target.api.call(variableRoute(target, 'get', options.key), { query: scopeFilter(options.scope) })
  if (options.json) return printRaw(deps.io, response.text)
  const { value } = parseJson<Variable>(response)
  deps.io.stdout.write(value.endsWith('\n') || !deps.io.stdoutIsTTY ? value : `${value}\n`)
}
