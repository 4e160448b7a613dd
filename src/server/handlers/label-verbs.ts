// The label endpoints projects and groups share (labels.ts, group-labels.ts, label-subscriptions.ts): one owner
// lookup, one presenter (Entities::ProjectLabel or GroupLabel with its counts), the same verbs.
import type { RequestContext } from '../context.js'
import * as labels from '../services/issuables/index.js'
import type { Owner } from '../services/projects/index.js'

type Input = Record<string, unknown> & { id: string }
type Present<O> = (ctx: RequestContext, owner: O, l: labels.LabelRow, subscribed?: boolean) => unknown

export function labelVerbs<O extends Owner>(ownerOf: (ctx: RequestContext, id: string) => O, present: Present<O>) {
  const byParam = (ctx: RequestContext, o: O, input: { name?: string; label_id?: number }) => labels.findLabel(ctx, o, labels.labelRefParam(input))
  const toggle = (on: boolean) => (input: Input & { label_id: string }, ctx: RequestContext) => {
    const o = ownerOf(ctx, input.id)
    const l = labels.findLabel(ctx, o, input.label_id, {})
    labels.setLabelSubscription(ctx, l, on)
    return { status: 201, body: present(ctx, o, l, on) }
  }
  return {
    list: (input: Input & labels.LabelScopeInput & { search?: string }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      const { rows, total } = labels.listLabels(ctx, o, input)
      return { status: 200, body: rows.map((l) => present(ctx, o, l)), total }
    },
    get: (input: Input & labels.LabelScopeInput & { label_id: string }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      return { status: 200, body: present(ctx, o, labels.findLabel(ctx, o, input.label_id, input)) }
    },
    create: (input: Input & { name: string; color: string; description?: string; priority?: number | null }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      return { status: 201, body: present(ctx, o, labels.createLabel(ctx, o, input)) }
    },
    edit: (input: Input & labels.EditLabelInput & { label_id: string }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      return { status: 200, body: present(ctx, o, labels.editLabel(ctx, o, labels.findLabel(ctx, o, input.label_id), input)) }
    },
    editByName: (input: Input & labels.EditLabelInput & { name?: string; label_id?: number }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      return { status: 200, body: present(ctx, o, labels.editLabel(ctx, o, byParam(ctx, o, input), input)) }
    },
    delete: (input: Input & { label_id: string }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      labels.deleteLabel(ctx, o, labels.findLabel(ctx, o, input.label_id))
      return { status: 204 }
    },
    deleteByName: (input: Input & { name?: string; label_id?: number }, ctx: RequestContext) => {
      const o = ownerOf(ctx, input.id)
      labels.deleteLabel(ctx, o, byParam(ctx, o, input))
      return { status: 204 }
    },
    subscribe: toggle(true),
    unsubscribe: toggle(false),
  }
}
