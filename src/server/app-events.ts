// The app's events between layers that may not import each other: services announce pushes and new merge requests,
// CI announces finished pipelines, and app.ts subscribes the listeners, so ci/ never imports services/ (DESIGN.md, CI).
// Keyed by app, so every server (and every test) has its own listeners; each runs as a background task.
import type { AppDeps } from './context.js'
import type { RefChange } from './git/transport.js'
import type { PipelineRow } from './store/pipelines.js'
import type { ProjectView } from './store/projects.js'
import type { UserRow } from './store/users.js'

/** Refs moved, by a push or by the API (commits, branches, tags, cherry-picks, merges); told once the repository lock is released. */
export interface PushEvent {
  project: ProjectView
  user: UserRow
  changes: RefChange[]
}

export interface MergeRequestOpened {
  mergeRequestId: number
  user: UserRow | null
}

interface AppEvents {
  refsMoved: PushEvent
  mergeRequestOpened: MergeRequestOpened
  pipelineFinished: PipelineRow
}

type EventName = keyof AppEvents
export type AppEventListener<E extends EventName> = (app: AppDeps, event: AppEvents[E]) => void | Promise<void>

/** Named as the task queue logs a listener that failed. */
const TASK_NAMES: Record<EventName, string> = {
  refsMoved: 'refs moved hook',
  mergeRequestOpened: 'merge request pipeline',
  pipelineFinished: 'pipeline finished hook',
}

type Listeners = { [E in EventName]: Set<AppEventListener<E>> }

const states = new WeakMap<AppDeps, Listeners>()

function listenersOf(app: AppDeps): Listeners {
  let s = states.get(app)
  if (!s) states.set(app, (s = { refsMoved: new Set(), mergeRequestOpened: new Set(), pipelineFinished: new Set() }))
  return s
}

function on<E extends EventName>(app: AppDeps, name: E, listener: AppEventListener<E>): () => void {
  const set = listenersOf(app)[name] as Set<AppEventListener<E>>
  set.add(listener)
  return () => set.delete(listener)
}

function emit<E extends EventName>(app: AppDeps, name: E, event: AppEvents[E]) {
  for (const l of listenersOf(app)[name] as Set<AppEventListener<E>>) app.tasks.run(TASK_NAMES[name], () => l(app, event))
}

export const onRefsMoved = (app: AppDeps, l: AppEventListener<'refsMoved'>) => on(app, 'refsMoved', l)
export const emitRefsMoved = (app: AppDeps, event: PushEvent) => emit(app, 'refsMoved', event)

export const onMergeRequestOpened = (app: AppDeps, l: AppEventListener<'mergeRequestOpened'>) => on(app, 'mergeRequestOpened', l)
export const emitMergeRequestOpened = (app: AppDeps, event: MergeRequestOpened) => emit(app, 'mergeRequestOpened', event)

export const onPipelineFinished = (app: AppDeps, l: AppEventListener<'pipelineFinished'>) => on(app, 'pipelineFinished', l)
export const emitPipelineFinished = (app: AppDeps, pipeline: PipelineRow) => emit(app, 'pipelineFinished', pipeline)
