// What `collab project migrate` has copied so far: an append-only journal (JSON lines) mapping each source item to
// its copy on the target, so a re-run continues where the last one stopped and creates nothing twice.
//
// A journal on the client rather than markers on the target: GitLab has nowhere to keep a marker on a note, an award
// or a label without changing what users see, and the journal lets a re-run skip finished issues without a request.
// A line is appended (and flushed by the kernel) right after the target answers, so a killed run loses at most the
// item in flight; issues are keyed by their iid on the target as well, so even that one is found again.
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { failure } from '../../src/cli/errors.js'

export type Kind =
  | 'project' | 'label' | 'milestone' | 'issue' | 'merge_request' | 'snippet' | 'note' | 'award' | 'spent' | 'done'
  | 'release' | 'variable' | 'branch' | 'upload'

interface Line {
  k: Kind
  s: string
  t: string | number
}

export interface Journal {
  readonly file: string
  get(kind: Kind, key: string | number): string | number | undefined
  has(kind: Kind, key: string | number): boolean
  /** Appends one mapping; with a stop hook, fails after the chosen number of records (tests interrupt runs this way). */
  record(kind: Kind, key: string | number, value: string | number): void
  /** Records written by this run. */
  written(): number
}

/** `<config dir>/migrations/<source path>-<hash>.jsonl`: one journal per source project and target location. */
export function journalPath(configDir: string, source: { host: string; project: number; path: string }, target: { host: string; path: string }): string {
  const key = JSON.stringify([source.host, source.project, target.host, target.path])
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 16)
  return join(configDir, 'migrations', `${source.path.replace(/[^\w.-]+/g, '-')}-${hash}.jsonl`)
}

export class MigrationStopped extends Error {}

export function openJournal(file: string, stopAfter?: number): Journal {
  const map = new Map<string, string | number>()
  if (existsSync(file)) {
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (!text.trim()) continue
      let line: Line
      try {
        line = JSON.parse(text) as Line
      } catch {
        // A run killed mid-write leaves a partial last line: that item is looked up again.
        continue
      }
      if (line.k) map.set(`${line.k}:${line.s}`, line.t)
    }
  } else {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    } catch (err) {
      throw failure(`cannot create the migration journal's directory ${dirname(file)}: ${(err as Error).message}`, 'choose another place with --state FILE')
    }
  }
  let count = 0
  return {
    file,
    get: (kind, key) => map.get(`${kind}:${key}`),
    has: (kind, key) => map.has(`${kind}:${key}`),
    record(kind, key, value) {
      const line: Line = { k: kind, s: String(key), t: value }
      appendFileSync(file, `${JSON.stringify(line)}\n`, { mode: 0o600 })
      map.set(`${kind}:${key}`, value)
      count++
      if (stopAfter !== undefined && count >= stopAfter) throw new MigrationStopped(`stopped after ${count} records (COLLAB_MIGRATE_STOP_AFTER)`)
    },
    written: () => count,
  }
}
