// GET …/repository/compare (GitLab's CompareService): `to` of this project against `from` of this project or of one
// in its fork network, through the merge base (`from...to`) or straight (`from..to`).
import { CollabError, forbidden, notFound } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { diffBetween } from '../../git/diff.js'
import { commitsBetween, mergeBase, withFetchedCommit } from '../../git/merge/index.js'
import { resolveCommit } from '../../git/read.js'
import { canReadCode, canReadProject } from '../../policy.js'
import type { ComparisonView } from '../../present/commits.js'
import { findProjectById, type ProjectView } from '../../store/projects.js'
import { CHANGES_CAP } from '../merge-requests/merge-request-status.js'
import { gitdirOf, requireReadCode } from './repository.js'

export interface CompareInput { id: string; from: string; to: string; from_project_id?: number; straight?: boolean }

export type Comparison = ComparisonView

/** The first project of a fork chain: two projects share a fork network when they share it. */
function networkRoot(ctx: RequestContext, p: ProjectView): number {
  let at = p
  for (const seen = new Set<number>(); at.forked_from_id !== null && !seen.has(at.id); ) {
    seen.add(at.id)
    const parent = findProjectById(ctx.app.db, at.forked_from_id)
    if (!parent) break
    at = parent
  }
  return at.id
}

/** MergeRequestTargetProjectFinder: a readable project of the same fork network, or GitLab's 400. */
function fromProjectOf(ctx: RequestContext, p: ProjectView, input: CompareInput): ProjectView {
  if (input.from_project_id === undefined || input.from_project_id === p.id) return p
  const other = findProjectById(ctx.app.db, input.from_project_id)
  if (!other || !canReadProject(ctx, other) || networkRoot(ctx, other) !== networkRoot(ctx, p)) {
    const message = `Target project id:${input.from_project_id} is not a fork of project id:${input.id}`
    throw new CollabError('NOT_A_FORK', message, { status: 400 })
  }
  if (!canReadCode(ctx, other)) throw forbidden("You don't have access to this fork's parent project")
  return other
}

export async function compareRefs(ctx: RequestContext, p: ProjectView, input: CompareInput): Promise<Comparison> {
  requireReadCode(ctx, p)
  const from = fromProjectOf(ctx, p, input)
  const toSha = await resolveCommit(gitdirOf(ctx, p), input.to.trim())
  if (!toSha) throw notFound('Ref')
  if (from.id === p.id) return compareIn(ctx, from, input, toSha)
  // As GitLab's with_tmp_ref: `to` is brought into the other repository for the comparison.
  return withFetchedCommit(gitdirOf(ctx, from), gitdirOf(ctx, p), toSha, () => compareIn(ctx, from, input, toSha))
}

async function compareIn(ctx: RequestContext, p: ProjectView, input: CompareInput, toSha: string): Promise<Comparison> {
  const gitdir = gitdirOf(ctx, p)
  const fromSha = await resolveCommit(gitdir, input.from.trim())
  // An unknown `from` compares nothing (Gitlab::Git::Compare without a base).
  if (!fromSha) return { project: p, commits: [], diffs: [], same: false, overflow: false, fromSha: null, toSha }
  if (fromSha === toSha) return { project: p, commits: [], diffs: [], same: true, overflow: false, fromSha, toSha }
  const base = input.straight ? fromSha : await mergeBase(gitdir, fromSha, toSha)
  const [commits, diffs] = await Promise.all([commitsBetween(gitdir, fromSha, toSha), base ? diffBetween(gitdir, base, toSha) : Promise.resolve([])])
  const overflow = diffs.length > CHANGES_CAP
  return { project: p, commits: commits.reverse(), diffs: overflow ? diffs.slice(0, CHANGES_CAP) : diffs, same: false, overflow, fromSha: base, toSha }
}
