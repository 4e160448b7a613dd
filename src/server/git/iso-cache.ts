// One isomorphic-git cache per recently used repository, and the options its calls take with it.
import fs from 'node:fs'

/**
 * isomorphic-git's cache of a repository (parsed pack indexes and the packs it has read whole): ~10x faster with one
 * shared across calls. Only the writes and in-process engines use it; it is kept for the few repositories used last and
 * dropped once a repository goes unused for a sweep period, so no pack stays in memory for long.
 */
const caches = new Map<string, { cache: object; used: boolean }>()
const MAX_CACHES = 4
const CACHE_SWEEP_MS = 30_000
let cacheSweeper: NodeJS.Timeout | null = null

export function cacheFor(gitdir: string): object {
  let c = caches.get(gitdir)
  if (c) caches.delete(gitdir)
  else c = { cache: {}, used: true }
  c.used = true
  caches.set(gitdir, c)
  if (caches.size > MAX_CACHES) caches.delete(caches.keys().next().value as string)
  cacheSweeper ??= setInterval(sweepCaches, CACHE_SWEEP_MS).unref()
  return c.cache
}

function sweepCaches() {
  for (const [gitdir, c] of caches) {
    if (!c.used) caches.delete(gitdir)
    c.used = false
  }
  if (!caches.size && cacheSweeper) {
    clearInterval(cacheSweeper)
    cacheSweeper = null
  }
}

export function forgetIsoCache(gitdir: string) {
  caches.delete(gitdir)
}

/** The options every isomorphic-git call on the repository takes: node's fs, the gitdir and its shared cache. */
export const isoOptions = (gitdir: string) => ({ fs, gitdir, cache: cacheFor(gitdir) })
