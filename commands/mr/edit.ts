// collab mr edit [mr]: change a merge request with PUT …/merge_requests/:iid; only what a flag names is sent.
import { Option, type Command, type OptionValues } from 'commander'
import { collect, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { sharedEditFields, withLabelEdits, withLock, withTitleAndDescription } from '../../src/cli/issuable/input.js'
import { milestoneId, userIds } from '../../src/cli/issuable/people.js'
import { reportWrite } from '../../src/cli/output.js'
import { csv, descriptionFrom } from '../../src/cli/text-input.js'
import { route } from '../../src/client/paths.js'
import { completeWith } from '../complete.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

export interface EditOptions {
  project?: string
  mr?: string
  /** The PUT body fields that need no lookup. */
  fields: Record<string, string | boolean>
  description?: string
  descriptionFile?: string
  assignees?: string[]
  reviewers?: string[]
  milestone?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const edit = withTitleAndDescription(group.command('edit').alias('update').description('Change a merge request'), true)
    .addOption(completeWith(new Option('-b, --target-branch <branch>', 'retarget onto another branch'), 'branches'))
  const command = withLabelEdits(edit)
    .option('-a, --assignee <user>', 'replace the assignees, by username or id (repeat or comma-separate)', collect)
    .option('--unassign', 'remove every assignee')
    .option('--reviewer <user>', 'replace the reviewers, by username or id', collect)
    .option('-m, --milestone <milestone>', 'the milestone, by title or global id ("none" removes it)')
    .option('--remove-source-branch', 'delete the source branch once merged')
    .option('--no-remove-source-branch', 'keep the source branch once merged')
    .option('--squash', 'squash the commits when merging')
    .option('--no-squash', 'keep the commits when merging')
  withJson(onMergeRequest(withLock(command))).action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export function toOptions(mr: string | undefined, flags: OptionValues): EditOptions {
  const fields: EditOptions['fields'] = sharedEditFields(flags)
  if (flags.targetBranch !== undefined) fields.target_branch = flags.targetBranch
  if (flags.removeSourceBranch !== undefined) fields.remove_source_branch = flags.removeSourceBranch
  if (flags.squash !== undefined) fields.squash = flags.squash
  return {
    project: flags.project, mr, fields, description: flags.description, descriptionFile: flags.descriptionFile,
    assignees: flags.unassign ? [] : csv(flags.assignee), reviewers: csv(flags.reviewer), milestone: flags.milestone, json: flags.json === true,
  }
}

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  const description = await descriptionFrom(deps, options.description, options.descriptionFile)
  const lookups = [options.assignees, options.reviewers, options.milestone]
  if (Object.keys(options.fields).length === 0 && description === undefined && lookups.every((v) => v === undefined)) {
    throw usageError('nothing to change', "pass at least one flag; see 'collab mr edit --help'")
  }
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const { api, ref } = target
  const { response } = await api.send(route('updateProjectMergeRequest', { id: ref, merge_request_iid: target.iid }), {
    ...options.fields,
    description,
    assignee_ids: await userIds(api, options.assignees, '--assignee'),
    reviewer_ids: await userIds(api, options.reviewers, '--reviewer'),
    milestone_id: await milestoneId(api, ref, options.milestone),
  })
  reportWrite(deps.io, options.json, response, `Updated merge request ${reference(target)}`)
}
