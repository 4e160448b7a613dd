// Reading a receive-pack request's command list before git sees it: chunked, gzipped, shallow lines; every byte replayed.
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readPushCommands } from '../../../src/server/git/push-commands.js'

const pkt = (s: string) => (Buffer.byteLength(s) + 4).toString(16).padStart(4, '0') + s
const A = 'a'.repeat(40)
const B = 'b'.repeat(40)
const Z = '0'.repeat(40)
const REQUEST = Buffer.from(pkt(`shallow ${A}\n`) + pkt(`${A} ${B} refs/heads/master\0report-status side-band-64k\n`) +
  pkt(`${Z} ${B} refs/heads/new\n`) + pkt(`${B} ${Z} refs/heads/gone\n`) + '0000' + 'PACK\0\0\0\x02 and the rest of the pack', 'latin1')
const COMMANDS = [
  { before: A, after: B, ref: 'refs/heads/master' },
  { before: null, after: B, ref: 'refs/heads/new' },
  { before: B, after: null, ref: 'refs/heads/gone' },
]

/** A request arriving in chunks of `size` bytes. */
const chunked = (buf: Buffer, size: number) => Readable.from(Array.from({ length: Math.ceil(buf.length / size) }, (_, i) => buf.subarray(i * size, (i + 1) * size)))

describe('readPushCommands', () => {
  it.each([1, 7, 4096])('reads the commands from %i-byte chunks and replays the whole body', async (size) => {
    const push = await readPushCommands(chunked(REQUEST, size), false)
    expect([push.commands, push.complete]).toEqual([COMMANDS, true])
    expect(await text(push.body)).toBe(REQUEST.toString('latin1'))
  })

  it('reads them through gzip and replays the compressed bytes unchanged', async () => {
    const gz = gzipSync(REQUEST)
    const push = await readPushCommands(chunked(gz, 5), true)
    expect([push.commands, push.complete]).toEqual([COMMANDS, true])
    const replay = Buffer.concat(await push.body.toArray())
    expect(replay.equals(gz)).toBe(true)
  })

  it('says incomplete when the request ends before the flush-pkt', async () => {
    const cut = REQUEST.subarray(0, 100)
    const push = await readPushCommands(chunked(cut, 30), false)
    expect(push.complete).toBe(false)
    expect(await text(push.body)).toBe(cut.toString('latin1'))
  })

  it('says incomplete when the list runs past its limit, instead of buffering without end', async () => {
    const line = pkt(`${A} ${B} refs/heads/${'x'.repeat(200)}\n`)
    const endless = Readable.from((function* () { for (let i = 0; i < 50_000; i++) yield Buffer.from(line) })())
    const push = await readPushCommands(endless, false)
    expect(push.complete).toBe(false)
    push.body.destroy()
  })
})
