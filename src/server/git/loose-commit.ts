// A commit's parents read from its loose object file, where a small push leaves it (receive.unpackLimit), without
// starting a git process: for the few lookups whose answer is worth less than a process start.
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { zlib } from '../../core/lazy-zlib.js'
import { HEX40 } from './object-read.js'

/** A commit's header (tree, parents, author) fits in this many bytes, compressed, unless it has hundreds of parents. */
const HEAD_BYTES = 4096

/**
 * The parent ids of commit `oid`, or null when it is not a loose object (packed, missing), is not a commit (a tag
 * to peel) or its header does not fit in the bytes read: the caller asks git instead.
 */
export async function looseCommitParents(gitdir: string, oid: string): Promise<string[] | null> {
  if (!HEX40.test(oid)) return null
  let head: Buffer
  try {
    const file = await open(join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2)), 'r')
    try {
      const buf = Buffer.alloc(HEAD_BYTES)
      const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0)
      head = buf.subarray(0, bytesRead)
    } finally {
      await file.close()
    }
  } catch {
    return null
  }
  let text: string
  try {
    // Only the start of the stream is read: a sync flush inflates what it holds without asking for its end (a start that
    // inflates past 256 KiB is refused rather than held).
    const z = zlib()
    text = z.inflateSync(head, { finishFlush: z.constants.Z_SYNC_FLUSH, maxOutputLength: 256 * 1024 }).toString('latin1')
  } catch {
    return null
  }
  const nul = text.indexOf('\0')
  if (nul < 0 || !text.startsWith('commit ')) return null
  const parents: string[] = []
  for (const line of text.slice(nul + 1).split('\n')) {
    if (line.startsWith('author ')) return parents
    if (line.startsWith('parent ')) {
      const id = line.slice(7)
      if (!HEX40.test(id)) return null
      parents.push(id)
    } else if (!line.startsWith('tree ')) return null
  }
  return null
}
