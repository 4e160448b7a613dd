// metadata.gz as GitLab Workhorse writes it beside an artifacts zip (internal/zipartifacts/metadata.go): GitLab
// browses artifact directories from it without opening the zip.
import { createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import type yauzl from 'yauzl'
import { zlib } from '../../core/lazy-zlib.js'

export const METADATA_HEADER = 'GitLab Build Artifacts Metadata 0.0.2\n'

interface EntryMetadata {
  modified: number
  mode: string
  crc: number
  size: number
  zipped: number
  comment: string
}

/** A length-prefixed string: 4 bytes big-endian, then the bytes. */
function lengthPrefixed(bytes: Buffer): Buffer {
  const head = Buffer.alloc(4)
  head.writeUInt32BE(bytes.length)
  return Buffer.concat([head, bytes])
}

/** Go's encoding/json escapes <, >, & and the two JavaScript line terminators; JSON.stringify does not. */
const goJsonString = (s: string) =>
  JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/**
 * Workhorse's JSON for one entry: `modified` and `mode` only when non-zero/non-empty (Go's omitempty), crc, size and
 * zipped always, `comment` when set. Parent directories missing from the zip get the zero value `{"crc":0,…}`.
 */
function entryJson(m: EntryMetadata | null): string {
  const fields: string[] = []
  if (m?.modified) fields.push(`"modified":${m.modified}`)
  if (m?.mode) fields.push(`"mode":${goJsonString(m.mode)}`)
  fields.push(`"crc":${m?.crc ?? 0}`, `"size":${m?.size ?? 0}`, `"zipped":${m?.zipped ?? 0}`)
  if (m?.comment) fields.push(`"comment":${goJsonString(m.comment)}`)
  return `{${fields.join(',')}}\n`
}

/** Go's FileHeader.Mode().Perm(): Unix modes from the high bits of the external attributes, else MS-DOS attributes. */
function permissions(entry: yauzl.Entry): number {
  const creator = entry.versionMadeBy >> 8
  if (creator === 3 || creator === 19) return (entry.externalFileAttributes >>> 16) & 0o777
  if (creator === 0 || creator === 11 || creator === 14) {
    const attrs = entry.externalFileAttributes
    const mode = attrs & 0x10 ? 0o777 : 0o666
    return attrs & 0x01 ? mode & ~0o222 : mode
  }
  return 0
}

function metadataOf(entry: yauzl.Entry): EntryMetadata {
  return {
    // Go's (deprecated) FileHeader.ModTime reads the MS-DOS fields as UTC, whatever the extended timestamp says.
    modified: Math.floor(entry.getLastModDate({ forceDosFormat: true, timezone: 'UTC' }).getTime() / 1000),
    mode: permissions(entry).toString(8),
    crc: entry.crc32,
    size: entry.uncompressedSize,
    zipped: entry.compressedSize,
    comment: entry.fileComment,
  }
}

/** Every entry of the zip's central directory, and the directories above them that the zip does not list. */
export async function readZipListing(zipPath: string): Promise<Map<string, EntryMetadata | null>> {
  const { default: yauzl } = await import('yauzl')
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: true })
  const listing = new Map<string, EntryMetadata | null>()
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      listing.set(entry.fileName, metadataOf(entry))
      const parts = entry.fileName.replace(/\/$/, '').split('/')
      for (let i = parts.length - 1; i > 0; i--) {
        const dir = parts.slice(0, i).join('/') + '/'
        if (!listing.has(dir)) listing.set(dir, null)
      }
      zip.readEntry()
    })
    zip.on('end', resolve)
    zip.on('error', reject)
    zip.readEntry()
  })
  return listing
}

/** The uncompressed bytes of metadata.gz for a listing: header, `{}`, then each path and its JSON, sorted bytewise. */
export function metadataBytes(listing: Map<string, EntryMetadata | null>): Buffer {
  const names = [...listing.keys()].map((n) => Buffer.from(n)).sort(Buffer.compare)
  const parts = [lengthPrefixed(Buffer.from(METADATA_HEADER)), lengthPrefixed(Buffer.from('{}'))]
  for (const name of names) {
    parts.push(lengthPrefixed(name), lengthPrefixed(Buffer.from(entryJson(listing.get(name.toString()) ?? null))))
  }
  return Buffer.concat(parts)
}

export async function writeMetadataGz(zipPath: string, outFile: string): Promise<void> {
  const bytes = metadataBytes(await readZipListing(zipPath))
  await pipeline(Readable.from([bytes]), zlib().createGzip(), createWriteStream(outFile))
}
