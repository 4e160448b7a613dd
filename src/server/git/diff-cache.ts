// A commit's diff against its first parent never changes: it is computed once and kept in an LRU bounded by bytes,
// so reading every page of a large diff (and its stats) costs one `git diff`, not one per page.
import type { Diff } from './diff-stream.js'
import type { DiffFile } from './types.js'

const DEFAULT_LIMIT_BYTES = 64 * 1024 * 1024

interface Entry { diff: Diff; bytes: number }

const entries = new Map<string, Entry>()
let totalBytes = 0
let limitBytes = DEFAULT_LIMIT_BYTES

/** Roughly what the entry holds: strings at two bytes a character, and a fixed cost per file object. */
const sizeOf = (files: readonly DiffFile[]) =>
  files.reduce((n, f) => n + 2 * (f.diff.length + f.oldPath.length + f.newPath.length) + 160, 0)

function drop(key: string, entry: Entry) {
  if (entries.get(key) !== entry) return
  entries.delete(key)
  totalBytes -= entry.bytes
}

/** Oldest first (a Map keeps insertion order and hits are re-inserted), until the total fits. */
function evict() {
  for (const [key, entry] of entries) {
    if (totalBytes <= limitBytes) return
    drop(key, entry)
  }
}

/**
 * The cached diff for `key`, or `compute()`'s, remembered. Concurrent readers of one diff share one computation (also
 * while it is still arriving); a failed computation is forgotten. Callers must not modify the files it gives.
 */
export function cachedDiff(key: string, compute: () => Diff): Diff {
  const hit = entries.get(key)
  if (hit) {
    entries.delete(key)
    entries.set(key, hit)
    return hit.diff
  }
  const entry: Entry = { diff: compute(), bytes: 0 }
  entries.set(key, entry)
  entry.diff.all.then((files) => {
    if (entries.get(key) !== entry) return
    entry.bytes = sizeOf(files)
    totalBytes += entry.bytes
    // One diff larger than the whole cache would only push everything else out before going itself.
    if (entry.bytes > limitBytes) drop(key, entry)
    else evict()
  }, () => drop(key, entry))
  return entry.diff
}

/** What the cache holds now (tests check the bound). */
export const diffCacheUsage = () => ({ entries: entries.size, bytes: totalBytes })

/** Lets tests lower the bound; null restores the default. Entries over the new bound are evicted at once. */
export function setDiffCacheLimit(bytes: number | null) {
  limitBytes = bytes ?? DEFAULT_LIMIT_BYTES
  evict()
}
