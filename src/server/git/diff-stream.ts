// A diff read as git writes it: the file list first, then each file's patch in order. A page of a large diff is answered
// once git has written that far, not when it has finished (GitLab, too, serves large diffs in batches).
import { hunksOf, parseRaw, type DiffEntryHead } from './diff-parse.js'
import type { DiffFile } from './types.js'

/** A diff, whole or being computed. */
export interface Diff {
  /** Every file, once all are there. */
  all: Promise<readonly DiffFile[]>
  /** Files [offset, offset + limit) and how many the diff has, as soon as those files are there. */
  page(offset: number, limit: number): Promise<{ files: readonly DiffFile[]; total: number }>
}

/** A diff computed in one piece. */
export const wholeDiff = (all: Promise<readonly DiffFile[]>): Diff => ({
  all,
  page: (offset, limit) => all.then((files) => ({ files: files.slice(offset, offset + limit), total: files.length })),
})

interface Waiter { ready: () => boolean; resolve: () => void; reject: (err: unknown) => void }

/** A diff filled in file by file: `begin` with the number of files, `add` each in order, then `end` (or `fail`). */
export class GrowingDiff implements Diff {
  readonly all: Promise<readonly DiffFile[]>
  private files: DiffFile[] = []
  private total: number | null = null
  private error: unknown = null
  private waiting: Waiter[] = []
  private settle!: { resolve: (files: DiffFile[]) => void; reject: (err: unknown) => void }

  constructor() {
    this.all = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
    // Readers of pages hear of a failure through page(); nobody may be waiting on `all`.
    this.all.catch(() => {})
  }

  get received() {
    return this.files.length
  }

  begin(total: number) {
    this.total = total
    this.wake()
  }

  add(file: DiffFile) {
    this.files.push(file)
    this.wake()
  }

  end() {
    this.total = this.files.length
    this.settle.resolve(this.files)
    this.wake()
  }

  fail(err: unknown) {
    this.error = err
    this.settle.reject(err)
    for (const w of this.waiting) w.reject(err)
    this.waiting = []
  }

  page(offset: number, limit: number) {
    const ready = () => this.total !== null && this.files.length >= Math.min(offset + limit, this.total)
    return this.until(ready).then(() => ({ files: this.files.slice(offset, offset + limit), total: this.total! }))
  }

  private until(ready: () => boolean): Promise<void> {
    if (this.error !== null) return Promise.reject(this.error)
    if (ready()) return Promise.resolve()
    return new Promise((resolve, reject) => this.waiting.push({ ready, resolve, reject }))
  }

  private wake() {
    this.waiting = this.waiting.filter((w) => {
      if (!w.ready()) return true
      w.resolve()
      return false
    })
  }
}

const RAW_END = '\0\0diff --git '
// A patch ends where a line starts the next one; content lines start with ' ', '+', '-' or '\\', never with this.
const NEXT_PATCH = '\ndiff --git '

/**
 * Reads `git diff --raw -p -z` output chunk by chunk into `diff`: the raw list (it comes first and says how many files
 * there are), then the patches, one file each, in the list's order. Text is joined only when a chunk completes
 * something, so a patch of many megabytes is not copied once per chunk.
 */
export class DiffOutputReader {
  private entries: DiffEntryHead[] | null = null
  private pending: string[] = []
  /** The end of the text searched so far, kept so a marker split across chunks is still found. */
  private carry = ''

  constructor(private readonly diff: GrowingDiff) {}

  /** The next chunk of output. */
  push(chunk: string) {
    const marker = this.entries ? NEXT_PATCH : RAW_END
    const window = this.carry + chunk
    if (window.indexOf(marker) < 0) {
      this.pending.push(chunk)
      this.carry = window.slice(-(marker.length - 1))
      return
    }
    const text = this.pending.join('') + chunk
    this.pending = []
    this.consume(text, false)
  }

  /** The output has ended: the last patch is complete, and files without a patch get none. */
  end() {
    this.consume(this.pending.join(''), true)
    this.pending = []
    this.diff.end()
  }

  /**
   * The output stopped early (too large): the files read whole keep their patches, the others are told as `rest`
   * (every file without its patch, in the same order) tells them, as GitLab shows the files of a diff past its limits.
   */
  endWithout(rest: readonly DiffFile[]) {
    if (!this.entries) this.diff.begin(rest.length)
    while (this.diff.received < rest.length) this.diff.add(rest[this.diff.received])
    this.diff.end()
  }

  private consume(text: string, ended: boolean) {
    let at = 0
    if (!this.entries) {
      const split = text.indexOf(RAW_END)
      if (split < 0 && !ended) return this.keep(text, RAW_END)
      this.entries = parseRaw(split < 0 ? text.replace(/\0+$/, '') : text.slice(0, split))
      this.diff.begin(this.entries.length)
      at = split < 0 ? text.length : split + 2
    }
    const entries = this.entries
    while (this.diff.received < entries.length && at < text.length) {
      const boundary = text.indexOf(NEXT_PATCH, at)
      if (boundary < 0 && !ended) return this.keep(text.slice(at), NEXT_PATCH)
      const end = boundary < 0 ? text.length : boundary + 1
      this.diff.add({ ...entries[this.diff.received], ...hunksOf(text, at, end) })
      at = end
    }
    if (ended) while (this.diff.received < entries.length) this.diff.add({ ...entries[this.diff.received], diff: '', additions: 0, deletions: 0 })
  }

  private keep(rest: string, marker: string) {
    this.pending = [rest]
    this.carry = rest.slice(-(marker.length - 1))
  }
}
