// collab settings get [NAME…]: every application setting, or the named ones, from GET /application/settings.
import type { Command, OptionValues } from 'commander'
import { isSettingName } from '../../src/contract/application-settings.js'
import { withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { settingText, warnUnknown } from './shared.js'

export interface GetOptions {
  names: string[]
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withConnection(group.command('get')
    .description('Print application settings: all of them, or the named ones')
    .argument('[names...]', 'setting names, such as signup_enabled default_projects_limit')))
    .action((names: string[], flags: OptionValues) => rt.invoke(command, run, toOptions(names, flags)))
}

export const toOptions = (names: string[], flags: OptionValues): GetOptions => ({ names, json: flags.json === true })

export async function run(options: GetOptions, deps: Deps): Promise<void> {
  const api = await deps.api()
  const response = await api.call(route('getApplicationSettings', {}))
  if (options.json && options.names.length === 0) return printRaw(deps.io, response.text)
  const record = parseJson<Record<string, unknown>>(response)
  const names = options.names.length ? options.names : Object.keys(record)
  for (const name of names) if (!isSettingName(name) && !(name in record)) warnUnknown(deps.io, name)
  const shown = names.filter((name) => name in record)
  if (options.json) return printRaw(deps.io, JSON.stringify(Object.fromEntries(shown.map((name) => [name, record[name]]))))
  printFields(deps.io, shown.map((name) => [name, settingText(record[name])]))
}
