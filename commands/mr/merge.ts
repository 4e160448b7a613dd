// collab mr merge [mr]: merge now, or when the pipeline succeeds; squash, source branch removal, expected head and messages.
// A failed head pipeline is said: on a terminal the merge is asked for, in a script it needs --yes.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onMergeRequest, reference, resolveMergeRequest, type MergeRequestTarget } from './shared.js'

export interface MergeOptions {
  project?: string
  mr?: string
  squash?: boolean
  removeSourceBranch?: boolean
  whenPipelineSucceeds: boolean
  sha?: string
  message?: string
  squashMessage?: string
  /** Merge over a failed head pipeline without asking. */
  yes: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('merge')
    .alias('accept')
    .description('Merge a merge request')
    .option('--squash', 'squash the commits into one')
    .option('--no-squash', 'keep the commits even when the merge request asks to squash')
    .option('-d, --remove-source-branch', 'delete the source branch after merging')
    .option('--when-pipeline-succeeds', 'merge once the head pipeline succeeds instead of now')
    .option('--sha <sha>', 'merge only if this is still the head of the source branch')
    .option('-m, --message <text>', 'the merge commit message')
    .option('--squash-message <text>', 'the squash commit message')
    .option('-y, --yes', 'merge even when the head pipeline failed (asked on a terminal, refused in a script without it)')
  withJson(onMergeRequest(command)).action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): MergeOptions => ({
  project: flags.project,
  mr,
  squash: flags.squash,
  removeSourceBranch: flags.removeSourceBranch,
  whenPipelineSucceeds: flags.whenPipelineSucceeds === true,
  sha: flags.sha,
  message: flags.message,
  squashMessage: flags.squashMessage,
  yes: flags.yes === true,
  json: flags.json === true,
})

/** gh and GitLab's page both stop at a failed pipeline; the API merges anyway unless the project forbids it. */
async function checkPipeline(deps: Deps, target: MergeRequestTarget): Promise<void> {
  const mr = await target.api.get(route('getProjectMergeRequest', { id: target.ref, merge_request_iid: target.iid }))
  const pipeline = mr.head_pipeline
  if (!pipeline || (pipeline.status !== 'failed' && pipeline.status !== 'canceled')) return
  const what = `the head pipeline #${pipeline.id} of ${reference(target)} ${pipeline.status === 'failed' ? 'failed' : 'was canceled'}`
  if (!deps.io.canPrompt) throw failure(what, `merge anyway with --yes, or see why: collab mr checks ${target.iid}`)
  deps.io.stderr.write(`${deps.io.color.yellow('!')} ${what.charAt(0).toUpperCase()}${what.slice(1)}\n`)
  if (!(await deps.prompter.confirm('Merge anyway?', '--yes'))) throw failure('not merged')
}

export async function run(options: MergeOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  if (!options.yes && !options.whenPipelineSucceeds) await checkPipeline(deps, target)
  const { data, response } = await target.api.send(route('mergeMergeRequest', { id: target.ref, merge_request_iid: target.iid }), {
    squash: options.squash,
    should_remove_source_branch: options.removeSourceBranch,
    merge_when_pipeline_succeeds: options.whenPipelineSucceeds || undefined,
    sha: options.sha,
    merge_commit_message: options.message,
    squash_commit_message: options.squashMessage,
  })
  const done = data.state === 'merged'
    ? `Merged ${reference(target)} into ${data.target_branch}${data.merge_commit_sha ? ` (${data.merge_commit_sha.slice(0, 8)})` : ''}`
    : `Merge request ${reference(target)} will be merged when its pipeline succeeds`
  reportWrite(deps.io, options.json, response, done)
}
