// collab settings set NAME=VALUE…: change application settings with one PUT /application/settings, typed from the contract.
import type { Command, OptionValues } from 'commander'
import { isSettingName, SETTING_KINDS, type SettingKind } from '../../src/contract/application-settings.js'
import { withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { warnUnknown } from './shared.js'

export interface SetOptions {
  /** NAME=VALUE as typed. */
  assignments: string[]
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withConnection(group.command('set')
    .description('Change application settings: booleans as true/false, arrays as comma lists (an empty value clears one)')
    .argument('<assignments...>', 'NAME=VALUE pairs, such as signup_enabled=false restricted_visibility_levels=public,internal')))
    .action((assignments: string[], flags: OptionValues) => rt.invoke(command, run, toOptions(assignments, flags)))
}

export const toOptions = (assignments: string[], flags: OptionValues): SetOptions => ({ assignments, json: flags.json === true })

const TRUE = ['true', 'yes', 'on', '1']
const FALSE = ['false', 'no', 'off', '0']

/** The JSON value a setting's kind calls for; a value that cannot be one is a usage error, caught before any request. */
export function typedValue(name: string, kind: SettingKind | undefined, raw: string): unknown {
  switch (kind) {
    case 'boolean': {
      const v = raw.trim().toLowerCase()
      if (TRUE.includes(v)) return true
      if (FALSE.includes(v)) return false
      throw usageError(`${name} expects a boolean (true or false), not '${raw}'`)
    }
    case 'integer':
      if (!/^\s*-?\d+\s*$/.test(raw)) throw usageError(`${name} expects an integer, not '${raw}'`)
      return Number(raw)
    case 'decimal':
      if (raw.trim() === '' || !Number.isFinite(Number(raw))) throw usageError(`${name} expects a number, not '${raw}'`)
      return Number(raw)
    case 'array':
      return raw.split(',').map((item) => item.trim()).filter(Boolean)
    default:
      return raw
  }
}

export function parseAssignments(assignments: string[]): { settings: Record<string, unknown>; unknown: string[] } {
  const settings: Record<string, unknown> = {}
  const unknown: string[] = []
  for (const assignment of assignments) {
    const eq = assignment.indexOf('=')
    if (eq <= 0) throw usageError(`expected NAME=VALUE, not '${assignment}'`, "see 'collab settings set --help'")
    const name = assignment.slice(0, eq)
    const known = isSettingName(name)
    if (!known) unknown.push(name)
    settings[name] = typedValue(name, known ? SETTING_KINDS[name] : undefined, assignment.slice(eq + 1))
  }
  return { settings, unknown }
}

export async function run(options: SetOptions, deps: Deps): Promise<void> {
  const { settings, unknown } = parseAssignments(options.assignments)
  for (const name of unknown) warnUnknown(deps.io, name)
  const api = await deps.api()
  const response = await api.call(route('updateApplicationSettings', {}), { json: settings })
  if (options.json) printRaw(deps.io, response.text)
  // The server ignores names it does not have: only those its answer carries were updated.
  const answer = JSON.parse(response.text) as Record<string, unknown>
  const updated = Object.keys(settings).filter((name) => Object.hasOwn(answer, name))
  const ignored = Object.keys(settings).filter((name) => !Object.hasOwn(answer, name))
  if (updated.length === 0) throw failure(`nothing was updated: the server has no setting ${ignored.join(', ')}`, "see 'collab settings get'")
  status(deps.io, `Updated ${updated.join(', ')}`)
  if (ignored.length > 0) deps.io.stderr.write(`Not updated (the server has no such setting): ${ignored.join(', ')}\n`)
}
