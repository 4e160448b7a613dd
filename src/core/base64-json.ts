// A JSON document whose one large string is a byte stream in base64 (a file's `content`), written as the bytes are read,
// so a large file's JSON answer is never whole in memory.
import { Readable } from 'node:stream'

/**
 * `before` + base64 of `bytes` + `after`, where `before` opens the JSON string and `after` closes it; with its length
 * (`size` is the byte count of `bytes`). Destroying the result stops reading `bytes`.
 */
export function jsonAroundBase64(before: string, bytes: Readable, size: number, after: string): { stream: Readable; length: number } {
  async function* parts() {
    yield Buffer.from(before)
    let rest: Buffer = Buffer.alloc(0)
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      const all = rest.length ? Buffer.concat([rest, chunk]) : chunk
      // Whole groups of three bytes only, so the pieces join into one base64 text without padding in between.
      const cut = all.length - (all.length % 3)
      if (cut) yield Buffer.from(all.subarray(0, cut).toString('base64'))
      rest = Buffer.from(all.subarray(cut))
    }
    if (rest.length) yield Buffer.from(rest.toString('base64'))
    yield Buffer.from(after)
  }
  return { stream: Readable.from(parts(), { objectMode: false }), length: Buffer.byteLength(before) + 4 * Math.ceil(size / 3) + Buffer.byteLength(after) }
}

/** The JSON text of `fields` left open for one more string field `name`, whose value follows. */
export const openStringField = (fields: Record<string, unknown>, name: string) => `${JSON.stringify(fields).slice(0, -1)}${Object.keys(fields).length ? ',' : ''}${JSON.stringify(name)}:"`
