// A diff's files written back as `git diff --full-index` writes them (GitLab's raw_diffs).
import { ZERO_OID } from './diff-parse.js'
import type { DiffFile } from './types.js'

const side = (prefix: 'a' | 'b', path: string, missing: boolean) => (missing ? '/dev/null' : `${prefix}/${path}`)

/** The text of one file's patch: git's extended header lines, then the hunks with their ---/+++ lines. */
function filePatch(f: DiffFile): string {
  const lines = [`diff --git a/${f.oldPath} b/${f.newPath}`]
  if (f.newFile) lines.push(`new file mode ${f.bMode}`)
  else if (f.deletedFile) lines.push(`deleted file mode ${f.aMode}`)
  else if (f.aMode !== f.bMode) lines.push(`old mode ${f.aMode}`, `new mode ${f.bMode}`)
  if (f.renamedFile) {
    if (f.similarity !== undefined) lines.push(`similarity index ${f.similarity}%`)
    lines.push(`rename from ${f.oldPath}`, `rename to ${f.newPath}`)
  }
  const a = f.aBlob ?? ZERO_OID
  const b = f.bBlob ?? ZERO_OID
  if (a !== b) lines.push(`index ${a}..${b}${!f.newFile && !f.deletedFile && f.aMode === f.bMode ? ` ${f.aMode}` : ''}`)
  let text = `${lines.join('\n')}\n`
  if (f.diff.startsWith('@@')) text += `--- ${side('a', f.oldPath, f.newFile)}\n+++ ${side('b', f.newPath, f.deletedFile)}\n`
  return text + f.diff
}

/** The whole diff as one patch text, as `git diff --full-index base head` prints it. */
export const patchText = (files: readonly DiffFile[]) => files.map(filePatch).join('')
