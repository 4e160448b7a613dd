// A backup file's compression: chosen from its name or --compress when writing (gzip by node's zlib, zstd by the zstd
// program), recognised by its first bytes when reading, so a restore needs no flag.
import { spawn } from 'node:child_process'
import { open } from 'node:fs/promises'
import { Duplex } from 'node:stream'
import { createGunzip, createGzip } from 'node:zlib'
import { failure } from '../../src/cli/errors.js'

export const COMPRESSIONS = ['none', 'gzip', 'zstd'] as const
export type Compression = (typeof COMPRESSIONS)[number]

/** `.tar.gz`/`.tgz` is gzip, `.tar.zst`/`.tzst` zstd, anything else a plain tar. */
export function compressionOf(file: string): Compression {
  if (/\.(tgz|gz)$/i.test(file)) return 'gzip'
  if (/\.(tzst|zst|zstd)$/i.test(file)) return 'zstd'
  return 'none'
}

export const extensionOf = (c: Compression) => (c === 'gzip' ? '.tar.gz' : c === 'zstd' ? '.tar.zst' : '.tar')

/** The zstd program as a stream (node 20's zlib has no zstd); a missing program or a failed run fails the stream. */
function zstd(args: string[]): Duplex {
  const child = spawn('zstd', ['-q', ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  const stream = Duplex.from({ writable: child.stdin, readable: child.stdout })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.on('error', (err: NodeJS.ErrnoException) =>
    stream.destroy(err.code === 'ENOENT' ? failure('zstd is not installed: install it, or use gzip (.tar.gz) or no compression (.tar)') : err))
  child.on('close', (code) => {
    if (code) stream.destroy(failure(`zstd failed: ${stderr.trim() || `exit code ${code}`}`))
  })
  return stream
}

export function compressor(c: Compression): Duplex | null {
  if (c === 'gzip') return createGzip({ level: 6 })
  if (c === 'zstd') return zstd(['-c', '-T0'])
  return null
}

/** What the file's first bytes say it is. */
export async function sniffCompression(file: string): Promise<Compression> {
  const handle = await open(file, 'r')
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0)
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'gzip'
    if (bytesRead === 4 && buffer.readUInt32LE(0) === 0xfd2fb528) return 'zstd'
    return 'none'
  } finally {
    await handle.close()
  }
}

export function decompressor(c: Compression): Duplex | null {
  if (c === 'gzip') return createGunzip()
  if (c === 'zstd') return zstd(['-d', '-c'])
  return null
}
