// The milestone endpoints projects and groups share (labels.ts, group-milestones.ts): one owner lookup, the same verbs.
import type { RequestContext } from '../context.js'
import { nowIso } from '../context.js'
import { presentMilestone } from '../present/issues.js'
import * as milestones from '../services/issuables/index.js'
import { isProject, type Owner } from '../services/projects/index.js'

type Input = { id: string; milestone_id: number }

// A group milestone's web_url comes from its group path; the project path is read for a project's only.
export const presentOwnMilestone = (ctx: RequestContext, o: Owner, m: milestones.MilestoneRow) =>
  presentMilestone(m, isProject(o) ? `${o.ns_full_path}/${o.path}` : '', nowIso(ctx).slice(0, 10), ctx)

export function milestoneVerbs<O extends Owner>(ownerOf: (ctx: RequestContext, id: string) => O) {
  const found = (ctx: RequestContext, input: Input) => {
    const o = ownerOf(ctx, input.id)
    return { o, m: milestones.findMilestone(ctx, o, input.milestone_id) }
  }
  return {
    found,
    get: (input: Input, ctx: RequestContext) => {
      const { o, m } = found(ctx, input)
      return { status: 200, body: presentOwnMilestone(ctx, o, m) }
    },
    create: (input: { id: string; title: string } & milestones.MilestoneInput, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      return { status: 201, body: presentOwnMilestone(ctx, o, milestones.createMilestone(ctx, o, input)) }
    },
    edit: (input: Input & milestones.MilestoneInput, ctx: RequestContext) => {
      const { o, m } = found(ctx, input)
      return { status: 200, body: presentOwnMilestone(ctx, o, milestones.editMilestone(ctx, o, m, input)) }
    },
    delete: (input: Input, ctx: RequestContext) => {
      const { o, m } = found(ctx, input)
      milestones.deleteMilestone(ctx, o, m)
      return { status: 204 }
    },
  }
}
