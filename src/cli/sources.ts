// Files a verb reads because a flag names them (`--actions-file`, `--create path=file`); `-` is stdin.
import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { usageError } from './errors.js'
import type { IO } from './io.js'

/** A file (relative to the CLI's working directory) that cannot be read is a bad argument (exit 2), named with its flag. */
export async function readBytes(file: string, flag: string, io: Pick<IO, 'cwd'>): Promise<Buffer> {
  try {
    return await fs.readFile(resolve(io.cwd, file))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message
    throw usageError(`${flag}: cannot read '${file}': ${reason}`)
  }
}

export async function readText(file: string, flag: string, io: IO): Promise<string> {
  return file === '-' ? io.readStdin() : (await readBytes(file, flag, io)).toString('utf8')
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Text goes as text; bytes that are not UTF-8, or hold a NUL as binary formats do, go as base64. */
export function encodeContent(bytes: Uint8Array): { content: string; encoding?: 'base64' } {
  if (!bytes.includes(0)) {
    try {
      return { content: utf8.decode(bytes) }
    } catch {}
  }
  return { content: Buffer.from(bytes).toString('base64'), encoding: 'base64' }
}
