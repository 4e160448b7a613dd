// git's diff output read into files: the `--raw -z` list, each patch's hunks and line counts, `--numstat -z` counts.
import type { DiffFile } from './types.js'

/** GitLab prints a missing side's mode as `0`, not git's `000000`. */
export const gitlabMode = (mode: string) => (/^0+$/.test(mode) ? '0' : mode)

export const ZERO_OID = '0'.repeat(40)

export type DiffEntryHead = Omit<DiffFile, 'diff' | 'additions' | 'deletions'>

/**
 * The hunks of the patch at text[start, end), from its first line starting `@@` or `Binary files `, and their +/- lines.
 * Only `\n` ends a line here: a multiline regular expression's `^` also matches after a lone CR or U+2028 inside a
 * line, which split one file's patch in two and gave every later file its neighbour's.
 */
export function hunksOf(text: string, start: number, end: number) {
  let from = -1
  for (let line = start; line < end; line = text.indexOf('\n', line) + 1 || end) {
    if (text.startsWith('@@', line) || text.startsWith('Binary files ', line)) {
      from = line
      break
    }
  }
  if (from < 0) return { diff: '', additions: 0, deletions: 0 }
  let additions = 0
  let deletions = 0
  for (let line = from; line < end; line = text.indexOf('\n', line) + 1 || end) {
    const c = text.charCodeAt(line)
    if (c === 43) additions++
    else if (c === 45) deletions++
  }
  return { diff: text.slice(from, end), additions, deletions }
}

/** `--numstat -z` records: `added\tdeleted\tpath\0`, or for a rename `added\tdeleted\t\0old\0new\0`; binaries count `-`. */
export function parseNumstat(out: string): [number, number][] {
  const fields = out.split('\0')
  const counts: [number, number][] = []
  for (let i = 0; i < fields.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(fields[i])
    if (!m) continue
    counts.push([m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])])
    if (m[3] === '') i += 2
  }
  return counts
}

/** `--raw -z` records to entries, in git's order. */
export function parseRaw(rawPart: string): DiffEntryHead[] {
  const fields = rawPart.split('\0')
  const entries: DiffEntryHead[] = []
  for (let i = 0; i < fields.length; ) {
    const head = fields[i++]
    if (!head.startsWith(':')) continue
    const [aMode, bMode, aBlob, bBlob, status] = head.slice(1).split(' ')
    const renamed = status.startsWith('R') || status.startsWith('C')
    const oldPath = fields[i++]
    const newPath = renamed ? fields[i++] : oldPath
    // A type change (file <-> symlink) gets two patches from git, a deletion and an addition: two entries keep them in step.
    if (status === 'T') {
      const side = { oldPath, newPath, renamedFile: false }
      entries.push({ ...side, aMode: gitlabMode(aMode), bMode: '0', newFile: false, deletedFile: true, aBlob, bBlob: ZERO_OID })
      entries.push({ ...side, aMode: '0', bMode: gitlabMode(bMode), newFile: true, deletedFile: false, aBlob: ZERO_OID, bBlob })
      continue
    }
    entries.push({
      oldPath, newPath, aMode: gitlabMode(aMode), bMode: gitlabMode(bMode), newFile: status === 'A', deletedFile: status === 'D', renamedFile: status.startsWith('R'),
      aBlob, bBlob, ...(renamed ? { similarity: Number(status.slice(1)) } : {}),
    })
  }
  return entries
}
