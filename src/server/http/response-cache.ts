// Finished GET responses, remembered until the next write to the database: GitLab's `present_cached` idea, with the
// write generation as the cache key's version so nothing is ever served stale.
import type { Db } from '../store/db.js'
import { writeGeneration } from '../store/db.js'

export interface CachedResponse { status: number; headers: Record<string, string | number>; body: string; bytes: number }

interface Entry extends CachedResponse { generation: number }

interface Store { entries: Map<string, Entry>; bytes: number; generation: number }

const stores = new WeakMap<Db, Store>()
// Bounded by bytes: lists of 100 full entities are large, and the cache is only an accelerator.
const MAX_BYTES = 32 * 1024 * 1024
const MAX_ENTRY_BYTES = 1024 * 1024

function storeOf(db: Db) {
  let s = stores.get(db)
  if (!s) stores.set(db, (s = { entries: new Map(), bytes: 0, generation: 0 }))
  return s
}

function drop(s: Store, key: string, e: Entry) {
  s.entries.delete(key)
  s.bytes -= e.bytes
}

export function cachedResponse(db: Db, key: string): CachedResponse | undefined {
  const s = storeOf(db)
  const e = s.entries.get(key)
  if (!e) return undefined
  if (e.generation !== writeGeneration(db)) {
    drop(s, key, e)
    return undefined
  }
  return e
}

/** Remembers a response computed entirely at `generation`; a write during its computation makes it unrememberable. */
export function rememberResponse(db: Db, key: string, generation: number, response: CachedResponse) {
  if (generation !== writeGeneration(db) || response.bytes > MAX_ENTRY_BYTES) return
  const s = storeOf(db)
  // Everything remembered before the last write is stale: let it go at once rather than one lookup at a time.
  if (s.generation !== generation) {
    s.entries.clear()
    s.bytes = 0
    s.generation = generation
  }
  const old = s.entries.get(key)
  if (old) drop(s, key, old)
  s.entries.set(key, { ...response, generation })
  s.bytes += response.bytes
  // Oldest first: Map keeps insertion order.
  for (const [k, e] of s.entries) {
    if (s.bytes <= MAX_BYTES) break
    drop(s, k, e)
  }
}
