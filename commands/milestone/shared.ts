// What the milestone verbs share: the columns of a list, the date flags, and a milestone found by id or title.
import type { Command, OptionValues } from 'commander'
import { CliError, usageError } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { stateStyle } from '../../src/cli/terminal.js'
import type { Owner } from '../label/owner.js'

export type Milestone = ResponseOf<'getProjectMilestone'>

export const milestoneColumns = (io: IO): Column<Milestone>[] => [
  { header: 'ID', value: (m) => m.id },
  { header: 'TITLE', value: (m) => m.title, style: (text) => io.color.bold(text), flex: true },
  { header: 'STATE', value: (m) => m.state, style: (text) => stateStyle(io, text) },
  { header: 'START', value: (m) => m.start_date },
  { header: 'DUE', value: (m) => m.due_date },
]

export interface MilestoneFields { title?: string; description?: string; start_date?: string; due_date?: string }

const DATE = /^\d{4}-\d{2}-\d{2}$/

export const withMilestoneFields = (command: Command) => command
  .option('-d, --description <text>', 'what the milestone is for')
  .option('--start-date <YYYY-MM-DD>', "when it starts; '' clears it")
  .option('--due-date <YYYY-MM-DD>', "when it is due; '' clears it")

/** The flags given, as the API's fields; a date that is not YYYY-MM-DD (or '') is a usage error before any request. */
export function milestoneFields(flags: OptionValues): MilestoneFields {
  const fields: MilestoneFields = {}
  if (flags.description !== undefined) fields.description = flags.description
  for (const [flag, key] of [['startDate', 'start_date'], ['dueDate', 'due_date']] as const) {
    const value = flags[flag]
    if (value === undefined) continue
    if (value !== '' && !DATE.test(value)) throw usageError(`--${key.replace('_', '-')} takes a date as YYYY-MM-DD, not ${JSON.stringify(value)}`)
    fields[key] = value
  }
  return fields
}

/** A milestone's global id from an id or a title (the API's `title` filter is exact), in a project or a group. */
export async function milestoneId(owner: Owner, idOrTitle: string): Promise<number> {
  if (/^\d+$/.test(idOrTitle)) return Number(idOrTitle)
  const found = await owner.api.call(route(owner.group ? 'listGroupMilestones' : 'listProjectMilestones', { id: owner.id }), { query: { title: idOrTitle } })
  const match = (JSON.parse(found.text) as Milestone[])[0]
  if (!match) throw new CliError('FAILED', `no milestone titled ${JSON.stringify(idOrTitle)} in ${owner.id}`)
  return match.id
}
