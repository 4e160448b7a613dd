// collab mr create: a merge request from the current git branch (or --source-branch) into the default branch (or
// --target-branch); a local branch the server lacks (or has behind) is pushed first: asked on a terminal, --push in
// scripts. On a terminal with no --title it asks for one, then offers $EDITOR for the description.
import { Option, type Command, type OptionValues } from 'commander'
import { collect, withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { askTitle, withTitleAndDescription } from '../../src/cli/issuable/input.js'
import { milestoneId, userIds } from '../../src/cli/issuable/people.js'
import { printRaw, status } from '../../src/cli/output.js'
import { csv, descriptionFrom } from '../../src/cli/text-input.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { completeWith } from '../complete.js'
import { commitsAhead, commitsBetween, currentBranch, gitOrFail, localBranchHead, pushRemote } from './git.js'

export interface CreateOptions {
  project?: string
  title?: string
  description?: string
  descriptionFile?: string
  sourceBranch?: string
  targetBranch?: string
  targetProject?: string
  fill: boolean
  draft: boolean
  removeSourceBranch: boolean
  squash: boolean
  labels?: string[]
  assignees?: string[]
  reviewers?: string[]
  milestone?: string
  /** Push the source branch first when the server lacks it or has it behind this clone. */
  push: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withTitleAndDescription(group.command('create').alias('new').description('Create a merge request from the current branch'), false)
    .addOption(completeWith(new Option('-s, --source-branch <branch>', 'the branch to merge (default: the current git branch)'), 'branches'))
    .addOption(completeWith(new Option('-b, --target-branch <branch>', "the branch to merge into (default: the target project's default branch)"), 'branches'))
    .option('--target-project <project>', 'for a fork: the project to merge into (id or path); -p is the fork')
    .option('-f, --fill', 'take the title and description from the commits the target branch lacks')
    .option('--draft', 'mark it as a draft (the title gets a Draft: prefix)')
    .option('--remove-source-branch', 'delete the source branch once merged')
    .option('--squash', 'squash the commits when merging')
    .option('-l, --label <labels>', 'labels (repeat or comma-separate); missing ones are created', collect)
    .option('-a, --assignee <user>', 'assign a user by username or id (repeat or comma-separate)', collect)
    .option('--reviewer <user>', 'ask a user to review, by username or id (repeat or comma-separate)', collect)
    .option('-m, --milestone <milestone>', 'the milestone, by title or global id')
    .option('--push', 'push the source branch first when the server lacks it or is behind (asked on a terminal)')
  withJson(withProject(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): CreateOptions => ({
  project: flags.project,
  title: flags.title,
  description: flags.description,
  descriptionFile: flags.descriptionFile,
  sourceBranch: flags.sourceBranch,
  targetBranch: flags.targetBranch,
  targetProject: flags.targetProject,
  fill: flags.fill === true,
  draft: flags.draft === true,
  removeSourceBranch: flags.removeSourceBranch === true,
  squash: flags.squash === true,
  labels: csv(flags.label),
  assignees: csv(flags.assignee),
  reviewers: csv(flags.reviewer),
  milestone: flags.milestone,
  push: flags.push === true,
  json: flags.json === true,
})

/** GitLab's draft prefixes (`Draft:`, `[Draft]`, `(Draft)`, and the older WIP forms) are recognised, not doubled. */
const DRAFT = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|\[wip\]|wip:|wip\s)/i

/** glab's --fill: one commit gives its subject and body; several give the branch name and a list of their subjects. */
async function fill(deps: Deps, target: string, source: string): Promise<{ title: string; description?: string }> {
  const commits = await commitsBetween(deps.io, target, source)
  if (!commits) throw failure(`cannot list the commits of ${source} that ${target} lacks in the local repository`, `run 'git fetch', or pass --title`)
  if (commits.length === 1) return { title: commits[0].subject, description: commits[0].body || undefined }
  const named = source.replace(/[-_/]+/g, ' ').trim()
  return { title: named.charAt(0).toUpperCase() + named.slice(1), description: commits.map((c) => `- ${c.subject}`).join('\n') || undefined }
}

const PUSH = 'Push it now'
const SKIP = 'Skip: create it from what the server has'

/**
 * glab asks to push and gh pushes: a local source branch that the server lacks, or has behind, is pushed with
 * `git push -u REMOTE BRANCH` when --push says so or the person at the terminal agrees; a script without --push fails
 * with that command as the hint. A server branch this clone does not contain is left alone (a push would be refused).
 */
async function pushFirst(deps: Deps, api: ApiClient, ref: string, source: string, push: boolean): Promise<void> {
  const { io } = deps
  const local = await localBranchHead(io, source)
  if (!local) return
  const response = await api.call(route('getBranch', { id: ref, branch: source }), { throwOnError: false })
  const server = response.status === 200 ? parseJson<{ commit: { id: string } }>(response).commit.id : undefined
  if (server === local) return
  const ahead = server === undefined ? undefined : await commitsAhead(io, server, local)
  if (server !== undefined && ahead === undefined) return
  const remote = await pushRemote(io, source)
  const command = `git push -u ${remote} ${source}`
  const why = server === undefined ? `${source} is not on the server yet` : `the server's ${source} is ${ahead} commit${ahead === 1 ? '' : 's'} behind this clone`
  if (!push) {
    if (!io.canPrompt) throw failure(why, `push it first: ${command} (or pass --push)`)
    const choices = server === undefined ? [PUSH, 'Cancel'] : [PUSH, SKIP, 'Cancel']
    const answer = await deps.prompter.select(`${why}. Push it (${command})?`, '--push', choices)
    if (answer === SKIP) return
    if (answer !== PUSH) throw failure('cancelled: nothing was created')
  }
  status(io, `Pushing ${source} to ${remote}`)
  await gitOrFail(io, ['push', '-u', remote, source], { inherit: io.stdoutIsTTY })
}

/** The project to merge into: its id for `target_project_id` (forks only) and its default branch. */
async function targetOf(api: ApiClient, ref: string, options: CreateOptions) {
  if (options.targetProject === undefined && options.targetBranch !== undefined) return { id: undefined, branch: options.targetBranch }
  const project = await api.get(route('getProject', { id: options.targetProject ?? ref }))
  const branch = options.targetBranch ?? project.default_branch
  if (!branch) throw failure(`${project.path_with_namespace} has no default branch yet`, 'pass --target-branch')
  return { id: options.targetProject === undefined ? undefined : project.id, branch }
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  let description = await descriptionFrom(deps, options.description, options.descriptionFile)
  // Project and credentials first: a typo in -p or a missing login fails before anyone types a title.
  const { api, ref } = await deps.project(options.project)
  const source = options.sourceBranch ?? (await currentBranch(deps.io))
  if (source === undefined) throw usageError('--source-branch is required: the current directory is not on a git branch')
  const target = await targetOf(api, ref, options)
  await pushFirst(deps, api, ref, source, options.push)
  let title = options.title
  if (options.fill) {
    const filled = await fill(deps, target.branch, source)
    title ??= filled.title
    description ??= filled.description
  }
  ;({ title, description } = await askTitle(deps, title, description))
  if (options.draft && !DRAFT.test(title)) title = `Draft: ${title}`
  const { data, response } = await api.send(route('createProjectMergeRequest', { id: ref }), {
    source_branch: source,
    target_branch: target.branch,
    target_project_id: target.id,
    title,
    description,
    labels: options.labels?.join(','),
    assignee_ids: await userIds(api, options.assignees, '--assignee'),
    reviewer_ids: await userIds(api, options.reviewers, '--reviewer'),
    milestone_id: await milestoneId(api, options.targetProject ?? ref, options.milestone),
    remove_source_branch: options.removeSourceBranch || undefined,
    squash: options.squash || undefined,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.web_url}\n`)
  status(deps.io, `Created merge request !${data.iid} (${source} -> ${target.branch})`)
}
