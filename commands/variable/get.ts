// collab variable get <key>: a variable's value alone (for `$(collab variable get KEY)`), or the API's JSON.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onVariable, scopeFilter, type Variable } from './shared.js'

export interface GetOptions { project?: string; key: string; scope?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onVariable(group.command('get').description("Print a CI/CD variable's value")))
  command.action((key: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, flags)))
}

export const toOptions = (key: string, flags: OptionValues): GetOptions => ({ project: flags.project, key, scope: flags.scope, json: flags.json === true })

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getProjectVariable', { id: ref, key: options.key }), { query: scopeFilter(options.scope) })
  if (options.json) return printRaw(deps.io, response.text)
  const { value } = parseJson<Variable>(response)
  deps.io.stdout.write(value.endsWith('\n') || !deps.io.stdoutIsTTY ? value : `${value}\n`)
}
