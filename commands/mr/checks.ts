// collab mr checks [mr]: the head pipeline of a merge request and its jobs (gh pr checks, glab mr view's pipeline);
// --watch redraws until it finishes, and the exit code is its result.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { route } from '../../src/client/paths.js'
import { EXIT_CODES_HELP } from '../pipeline/shared.js'
import { run as viewPipeline, seconds } from '../pipeline/view.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

export interface ChecksOptions { project?: string; mr?: string; watch: boolean; interval: number; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onMergeRequest(group.command('checks').description("Show the merge request's head pipeline and its jobs")))
    .option('-w, --watch', 'redraw until the pipeline finishes (piped: wait, then print once)')
    .option('--interval <seconds>', 'seconds between two polls with --watch', seconds, 3)
    .addHelpText('after', `
Piped output: as collab pipeline view's.
${EXIT_CODES_HELP('pipeline')}`)
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): ChecksOptions => ({
  project: flags.project, mr, watch: flags.watch === true, interval: flags.interval, json: flags.json === true,
})

export async function run(options: ChecksOptions, deps: Deps): Promise<number> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const mr = await target.api.get(route('getProjectMergeRequest', { id: target.ref, merge_request_iid: target.iid }))
  const pipeline = mr.head_pipeline
  if (!pipeline) {
    deps.io.stderr.write(`No pipeline has run for ${reference(target)}\n`)
    return 0
  }
  // The head pipeline runs in the source project, which for a fork is not the target.
  return viewPipeline({
    project: String(pipeline.project_id), pipeline: String(pipeline.id), watch: options.watch, interval: options.interval, web: false, json: options.json,
  }, deps)
}
