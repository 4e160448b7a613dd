// The events that services announce for webhooks, as one typed emitter per app; listeners run after the write commits.
import type { AppDeps } from '../../context.js'
import { committed } from '../../store/db.js'
import type { NoteableKind } from '../../store/noteables.js'

export interface WikiPageChange { title: string; slug: string; format: string; content: string; message: string }

/** The events webhooks deliver. */
export type WebhookEvent =
  | { kind: 'issue'; action: 'open' | 'update' | 'close' | 'reopen'; projectId: number; userId: number; issueId: number; changes?: Record<string, { previous: unknown; current: unknown }> }
  | { kind: 'note'; projectId: number; userId: number; noteId: number; noteableId: number; noteableKind: NoteableKind }
  | { kind: 'merge_request'; action: 'open' | 'update' | 'close' | 'reopen' | 'merge'; projectId: number; userId: number; mergeRequestId: number }
  | { kind: 'wiki_page'; action: 'create' | 'update' | 'delete'; projectId: number; userId: number; page: WikiPageChange }
  /** Built when it happens: a deleted release has no row left to build it from. */
  | { kind: 'release'; action: 'create' | 'update' | 'delete'; projectId: number; userId: number; payload: Record<string, unknown> }

/** Announced for the events feed only: no webhook hears them. A member's join or leave names the member as userId. */
export type FeedEvent =
  | { kind: 'project'; action: 'create'; projectId: number; userId: number }
  | { kind: 'member'; action: 'join' | 'leave' | 'expire'; projectId: number; userId: number }
  | { kind: 'merge_request_approval'; projectId: number; userId: number; mergeRequestId: number }
  /** A project's milestone; its title is kept, as a destroyed one has no row left to read. */
  | { kind: 'milestone'; action: 'create' | 'close' | 'reopen' | 'destroy'; projectId: number; userId: number; milestoneId: number; title: string }

const FEED_KINDS: ReadonlySet<HookEvent['kind']> = new Set<FeedEvent['kind']>(['project', 'member', 'merge_request_approval', 'milestone'])
export const isFeedEvent = (e: HookEvent): e is FeedEvent => FEED_KINDS.has(e.kind)

export type HookEvent =
  | WebhookEvent
  | FeedEvent
  /** An instance event for every system hook (user_create, project_destroy …), its payload already built. */
  | { kind: 'system'; payload: Record<string, unknown> }

export type HookEventListener = (app: AppDeps, event: HookEvent) => void | Promise<void>

// Keyed by app so each server (and each test) has its own listeners.
const listeners = new WeakMap<AppDeps, Set<HookEventListener>>()

export function onHookEvent(app: AppDeps, listener: HookEventListener): () => void {
  let set = listeners.get(app)
  if (!set) listeners.set(app, (set = new Set()))
  set.add(listener)
  return () => set.delete(listener)
}

/**
 * Announces an event after the current write group commits (writes commit once per event-loop turn), so a listener
 * reads what was written and never announces a write that rolled back. Never blocks the request.
 */
export function emitHookEvent(app: AppDeps, event: HookEvent) {
  const set = listeners.get(app)
  if (!set?.size) return
  const done = committed(app.db)
  for (const listener of set) {
    app.tasks.run(`${event.kind} hook event`, async () => {
      // A group whose COMMIT failed never happened: nothing to announce.
      if (done && (await done.then(() => false, () => true))) return
      await listener(app, event)
    })
  }
}
