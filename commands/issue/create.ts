// collab issue create: a new issue; with no --title on a terminal it asks for one and opens $EDITOR for the description.
import type { Command, OptionValues } from 'commander'
import { collect, positiveInt, withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { projectBeforePrompt, type Deps } from '../../src/cli/factory.js'
import { askTitle, withTitleAndDescription } from '../../src/cli/issuable/input.js'
import { milestoneId, userIds } from '../../src/cli/issuable/people.js'
import { printRaw, status } from '../../src/cli/output.js'
import { csv, descriptionFrom } from '../../src/cli/text-input.js'
import { route } from '../../src/client/paths.js'

export interface CreateOptions {
  project?: string
  title?: string
  description?: string
  descriptionFile?: string
  labels?: string[]
  assigneeIds?: number[]
  /** Usernames (`@me` too) or ids, as glab takes them. */
  assignees?: string[]
  milestoneId?: number
  /** A title or an id. */
  milestone?: string
  dueDate?: string
  confidential: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withTitleAndDescription(group.command('create').alias('new').description('Create an issue'), false)
    .option('-l, --label <labels>', 'labels (repeat or comma-separate); missing ones are created', collect)
    .option('-a, --assignee <user>', 'assign a user by username (@me: you) or id (repeat or comma-separate)', collect)
    .option('--assignee-id <id>', 'assign a user by id (repeatable)', (v: string, prev: number[] = []) => [...prev, positiveInt(v)])
    .option('-m, --milestone <milestone>', 'the milestone, by title or global id')
    .option('--milestone-id <id>', 'the milestone (global id)', positiveInt)
    .option('--due-date <date>', 'due date, YYYY-MM-DD')
    .option('-c, --confidential', 'only visible to reporters and up, the author and assignees')
  withJson(withProject(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): CreateOptions => ({
  project: flags.project,
  title: flags.title,
  description: flags.description,
  descriptionFile: flags.descriptionFile,
  labels: csv(flags.label),
  assigneeIds: flags.assigneeId,
  assignees: csv(flags.assignee),
  milestoneId: flags.milestoneId,
  milestone: flags.milestone,
  dueDate: flags.dueDate,
  confidential: flags.confidential === true,
  json: flags.json === true,
})

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const given = await descriptionFrom(deps, options.description, options.descriptionFile)
  const { api, ref } = options.title === undefined ? await projectBeforePrompt(deps, options.project) : await deps.project(options.project)
  const { title, description } = await askTitle(deps, options.title, given)
  const { data, response } = await api.send(route('createProjectIssue', { id: ref }), {
    title,
    description,
    labels: options.labels?.join(','),
    assignee_ids: options.assigneeIds ?? (await userIds(api, options.assignees, '--assignee')),
    milestone_id: options.milestoneId ?? (await milestoneId(api, ref, options.milestone)),
    due_date: options.dueDate,
    confidential: options.confidential || undefined,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.web_url}\n`)
  status(deps.io, `Created issue #${data.iid} in ${ref}`)
}
