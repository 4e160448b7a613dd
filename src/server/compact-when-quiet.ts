// `collab serve` gives back the heap a burst of requests left behind once the burst is over, instead of when V8's memory
// reducer finds the process idle, half a minute or more later.
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** No request through this long counts as quiet: the burst is over, or is a trickle that waits as long anyway. */
export const QUIET_MS = 1000

/**
 * V8 shrinks its young generation only at a collection made when the allocation rate it measured over its last 5 s is
 * low (its memory reducer makes one about half a minute into the quiet, but after a full collection of ours it may
 * not); a young collection this long into the quiet does it. Not sooner: the next burst grows it back, and its first
 * seconds then cost more (issue creates in 4 s bursts 12 s apart: 14% and 21% more CPU per request with it at 6 s).
 */
export const SETTLE_MS = 30_000

/**
 * Below this much growth of V8's old generation since the last full collection left it, another is not worth its
 * pause. Under load V8 lets the old generation grow to a few times what is live (after issue 24's mixed load: 75 MB
 * held for 18 MB live) and gives the rest back only when its memory reducer finds the process idle. Counted from what
 * the collection left held, not live: V8 keeps partly used pages, and a count from the live bytes would collect again
 * after every request.
 */
export const MIN_GROWTH_BYTES = 16 * 1024 * 1024

/** Young collections tried, SETTLE_MS apart, while the server stays quiet and V8 keeps its young generation large. */
export const SETTLE_TRIES = 3

/** A young generation this small has nothing worth giving back (V8 starts it at 1 MB a semi-space). */
export const YOUNG_KEPT_BYTES = 4 * 1024 * 1024

export interface HeapSizes {
  /** Bytes V8 holds for its old generation (old space, code, large objects). */
  oldHeld: number
  /** Bytes V8 holds for its young generation. */
  youngHeld: number
}

export interface QuietCompactionDeps {
  /** A collection: `full` compacts the old generation, `young` collects only the young one (collection below). */
  collect(kind: 'full' | 'young'): void
  heapSizes(): HeapSizes
  setTimeout(run: () => void, ms: number): { unref?(): unknown }
  clearTimeout(timer: unknown): void
}

export interface QuietCompaction {
  /** Called as each request arrives. */
  request(): void
  stop(): void
}

const REAL_TIMERS = { setTimeout: (run: () => void, ms: number) => setTimeout(run, ms), clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout) }

/**
 * One timer per burst, not one per request: each request only counts. The timer looks every QUIET_MS whether a request
 * came since it last looked. The first time none did, the old generation is collected if it grew by MIN_GROWTH_BYTES
 * beyond what the last full collection left; if the server is still quiet SETTLE_MS later, a young collection lets V8 shrink
 * its young generation. Collections follow a burst by one to two QUIET_MS, never run while requests keep coming, and a
 * trickle of requests that leaves little garbage causes no full one.
 */
export function compactWhenQuiet(deps: Partial<QuietCompactionDeps> = {}): QuietCompaction {
  const { collect = collection, heapSizes: sizes = heapSizes } = deps
  const timers = deps.setTimeout && deps.clearTimeout ? { setTimeout: deps.setTimeout, clearTimeout: deps.clearTimeout } : REAL_TIMERS
  let kept = sizes().oldHeld
  let requests = 0
  let seen = 0
  let settles = 0
  let timer: ReturnType<QuietCompactionDeps['setTimeout']> | undefined
  const arm = (ms: number) => {
    seen = requests
    timer = timers.setTimeout(look, ms)
    // A quiet server may exit: the compaction is never a reason to stay up.
    timer.unref?.()
  }
  function look() {
    timer = undefined
    if (requests !== seen) {
      settles = 0
      return arm(QUIET_MS)
    }
    const heap = sizes()
    // V8 gives pages back while it sweeps, after a collection has returned: the least held since is what it left.
    kept = Math.min(kept, heap.oldHeld)
    if (settles === 0 && heap.oldHeld - kept >= MIN_GROWTH_BYTES) {
      collect('full')
      kept = sizes().oldHeld
    } else if (settles > 0 && heap.youngHeld > YOUNG_KEPT_BYTES) {
      collect('young')
    }
    // V8 may have collected in between and measured a rate from before the quiet: a few more tries, then it is V8's.
    if (settles < SETTLE_TRIES && sizes().youngHeld > YOUNG_KEPT_BYTES) {
      settles++
      arm(SETTLE_MS)
    } else {
      settles = 0
    }
  }
  return {
    request() {
      requests++
      if (timer === undefined) return arm(QUIET_MS)
      // Waiting to settle, the timer is SETTLE_MS long: the burst that just began must be seen ending as any other.
      if (settles > 0) {
        timers.clearTimeout(timer)
        settles = 0
        arm(QUIET_MS)
      }
    },
    stop() {
      if (timer !== undefined) timers.clearTimeout(timer)
      timer = undefined
    },
  }
}

/**
 * Counts every request an HTTP server of this process starts (node's `http.server.request.start` channel): collections
 * are the process's, so are the requests that make them worth it. Answers how to stop.
 */
export function compactAfterBursts(deps: Partial<QuietCompactionDeps> = {}): () => void {
  const compaction = compactWhenQuiet(deps)
  const onRequest = () => compaction.request()
  subscribe(REQUEST_START, onRequest)
  return () => {
    unsubscribe(REQUEST_START, onRequest)
    compaction.stop()
  }
}

const REQUEST_START = 'http.server.request.start'

export function heapSizes(): HeapSizes {
  const sizes = { oldHeld: 0, youngHeld: 0 }
  for (const s of getHeapSpaceStatistics()) {
    if (s.space_name.startsWith('new_')) sizes.youngHeld += s.physical_space_size
    else sizes.oldHeld += s.physical_space_size
  }
  return sizes
}

let gc: ((options?: { type: 'minor' }) => void) | undefined

/**
 * V8's own collections, as `node --expose-gc` offers them. A flag on node's command line would make V8 refuse the
 * bundle's code cache (src/cli/launch.ts), so the flag is set only while a fresh context is made, which then holds the
 * function, and taken back at once, leaving V8's flags as the cache expects them.
 */
export function collection(kind: 'full' | 'young'): void {
  if (!gc) {
    setFlagsFromString('--expose-gc')
    try {
      gc = runInNewContext('gc') as typeof gc
    } finally {
      setFlagsFromString('--no-expose-gc')
    }
  }
  // V8 compacts by its own heuristics (the sparsest pages). Compacting every page (--compact-on-every-full-gc) left
  // 19 MB held for 18 live instead of about 40, but the next bursts cost 3-25% more CPU per request (5 paired runs).
  if (kind === 'young') gc!({ type: 'minor' })
  else gc!()
}
