// What the in-process diff needs to say what `git diff` says: hunk headers with git's function context, and git's rename score.
import { structuredPatch } from 'diff'

/** Unified-diff ranges as git prints them: a lone line is `n`, an empty side `n-1,0`. */
const range = (start: number, count: number) => (count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`)

/** xdiff's default function line (def_ff): starts with a letter, `_` or `$`; at most 80 bytes, trailing space trimmed. */
function functionLine(line: string): string | null {
  if (!/^[A-Za-z_$]/.test(line)) return null
  return Buffer.from(line).subarray(0, 80).toString('utf8').replace(/\s+$/, '')
}

/** Hunks of two texts as git writes them, headers included; the context search stops at the previous hunk and otherwise keeps its line. */
export function unifiedHunks(oldText: string, newText: string): { diff: string; additions: number; deletions: number } {
  const oldLines = oldText.split('\n')
  let diff = ''
  let additions = 0
  let deletions = 0
  let context = ''
  let searchedTo = -1
  for (const h of structuredPatch('a', 'b', oldText, newText, '', '', { context: 3 }).hunks) {
    const first = h.oldStart - 1
    for (let l = first - 1; l > searchedTo; l--) {
      const found = functionLine(oldLines[l])
      if (found !== null) {
        context = found
        break
      }
    }
    searchedTo = first - 1
    diff += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${context ? ` ${context}` : ''}\n${h.lines.join('\n')}\n`
    additions += h.lines.filter((l) => l.startsWith('+')).length
    deletions += h.lines.filter((l) => l.startsWith('-')).length
  }
  return { diff, additions, deletions }
}

export const isBinary = (buf: Buffer) => buf.subarray(0, 8000).includes(0)

/** Bytes per distinct span, as diffcore-delta counts them: spans end at a newline or after 64 bytes; CR before LF is skipped in text. */
function spans(buf: Buffer): Map<string, number> {
  const text = !isBinary(buf)
  const out = new Map<string, number>()
  let span: number[] = []
  const close = () => {
    if (!span.length) return
    const key = Buffer.from(span).toString('latin1')
    out.set(key, (out.get(key) ?? 0) + span.length)
    span = []
  }
  for (let i = 0; i < buf.length; i++) {
    if (text && buf[i] === 13 && buf[i + 1] === 10) continue
    span.push(buf[i])
    if (span.length === 64 || buf[i] === 10) close()
  }
  close()
  return out
}

/** What the rename score is computed from: a blob's size and its spans. */
export interface Fingerprint { size: number; spans: Map<string, number> }

export const fingerprint = (buf: Buffer): Fingerprint => ({ size: buf.length, spans: spans(buf) })

/** git's rename similarity (diffcore-rename estimate_similarity), 0 to 1; git pairs a rename at 0.5 and above. */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  const max = Math.max(a.size, b.size)
  if (!max || (max - Math.min(a.size, b.size)) * 2 > max) return 0
  let copied = 0
  for (const [key, n] of a.spans) copied += Math.min(n, b.spans.get(key) ?? 0)
  return Math.floor((copied * 60000) / max) / 60000
}
