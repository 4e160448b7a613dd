// collab issue edit <iid>: change an issue with PUT /projects/:id/issues/:iid; only what a flag names is sent.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { sharedEditFields, withLabelEdits, withLock, withTitleAndDescription } from '../../src/cli/issuable/input.js'
import { reportWrite } from '../../src/cli/output.js'
import { descriptionFrom } from '../../src/cli/text-input.js'
import { route } from '../../src/client/paths.js'
import { onIssue } from './shared.js'

export interface EditOptions {
  project?: string
  iid: number
  /** The PUT body, without the description (which may come from a file). */
  fields: Record<string, string | number | boolean | number[]>
  description?: string
  descriptionFile?: string
  json: boolean
}

const ids = (v: string, prev: number[] = []) => [...prev, Number(v)]

export function register(group: Command, rt: Runtime): void {
  const command = withLabelEdits(withTitleAndDescription(group.command('edit').alias('update').description('Change an issue'), true))
    .option('-a, --assignee-id <id>', 'replace the assignees (repeatable; 0 unassigns)', ids)
    .option('--unassign', 'remove every assignee')
    .option('-m, --milestone-id <id>', 'the milestone (global id; 0 removes it)', (v: string) => Number(v))
    .option('--due-date <date>', 'due date, YYYY-MM-DD ("" removes it)')
    .option('--confidential', 'make the issue confidential')
    .option('--no-confidential', 'make the issue visible to everyone')
  withJson(onIssue(withLock(command))).action((iid: number, flags: OptionValues) => rt.invoke(command, run, toOptions(iid, flags)))
}

export function toOptions(iid: number, flags: OptionValues): EditOptions {
  const fields: EditOptions['fields'] = sharedEditFields(flags)
  if (flags.assigneeId !== undefined) fields.assignee_ids = flags.assigneeId
  if (flags.unassign) fields.assignee_ids = []
  if (flags.milestoneId !== undefined) fields.milestone_id = flags.milestoneId
  if (flags.dueDate !== undefined) fields.due_date = flags.dueDate
  if (flags.confidential !== undefined) fields.confidential = flags.confidential
  return { project: flags.project, iid, fields, description: flags.description, descriptionFile: flags.descriptionFile, json: flags.json === true }
}

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  const description = await descriptionFrom(deps, options.description, options.descriptionFile)
  const body = { ...options.fields, ...(description !== undefined ? { description } : {}) }
  if (Object.keys(body).length === 0) throw usageError('nothing to change', "pass at least one flag; see 'collab issue edit --help'")
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('editProjectIssue', { id: ref, issue_iid: options.iid }), body)
  reportWrite(deps.io, options.json, response, `Updated issue #${data.iid} in ${ref}`)
}
