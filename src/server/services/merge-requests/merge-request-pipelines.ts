// "Run pipeline" on a merge request (POST …/merge_requests/:iid/pipelines): a member of the target runs it there, a
// fork's too, which then runs the fork's config with the target's variables; GitLab asks that member to check first.
import type { RequestContext } from '../../context.js'
import { runMergeRequestPipelineInTarget } from '../../ci/triggers.js'
import { findVisibleMergeRequest } from './merge-requests.js'
import { requireCreatePipeline } from '../ci/pipelines.js'
import { findVisibleProject } from '../projects/projects.js'

/** `authorize! :create_pipeline` on the project of the route comes first, as in GitLab: 403 before any 404 of the iid. */
export async function runMergeRequestPipeline(ctx: RequestContext, id: string, iid: number) {
  const project = findVisibleProject(ctx, id)
  requireCreatePipeline(ctx, project)
  const mr = findVisibleMergeRequest(ctx, project, iid)
  return { project, row: await runMergeRequestPipelineInTarget(ctx.app, mr.id, ctx.user!) }
}
