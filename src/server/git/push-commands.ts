// The command list that opens a receive-pack request ("old new ref" per pkt-line), read before git sees the body.
import { PassThrough, pipeline, type Readable } from 'node:stream'
import { zlib } from '../../core/lazy-zlib.js'

export interface PushCommand { before: string | null; after: string | null; ref: string }

/** What was read, and the request body replayed from its first byte for git. */
export interface PushRequest { commands: PushCommand[]; complete: boolean; body: Readable }

// Commands are ~100 bytes each; a list this long is not a push anyone makes, and reading stops there.
const MAX_COMMAND_BYTES = 8 * 1024 * 1024
const ZERO = /^0+$/

/** Parses whole pkt-lines from `buf` into commands; returns the bytes consumed and whether the flush-pkt was seen. */
function parsePkts(buf: Buffer, commands: PushCommand[]): { used: number; flushed: boolean } {
  let at = 0
  while (buf.length - at >= 4) {
    const len = Number.parseInt(buf.toString('latin1', at, at + 4), 16)
    if (Number.isNaN(len) || (len > 0 && len < 4)) return { used: buf.length, flushed: true }
    if (len === 0) return { used: at + 4, flushed: true }
    if (buf.length - at < len) break
    const line = buf.toString('utf8', at + 4, at + len).split('\0')[0].replace(/\n$/, '')
    const [before, after, ref] = line.split(' ')
    // `shallow <oid>` lines may precede the commands; git itself refuses anything else malformed.
    if (ref !== undefined && before !== 'shallow') {
      commands.push({ before: ZERO.test(before) ? null : before, after: ZERO.test(after) ? null : after, ref })
    }
    at += len
  }
  return { used: at, flushed: false }
}

/**
 * Reads the request until the commands' flush-pkt (through gzip when the body is compressed), then hands back the
 * commands and a stream that replays every byte read so far followed by the rest. `complete` is false when the
 * request ended, failed or grew too long before the list did: the caller should then refuse rather than guess.
 */
export function readPushCommands(input: Readable, gzipped: boolean): Promise<PushRequest> {
  return new Promise((resolve) => {
    const raw: Buffer[] = []
    const commands: PushCommand[] = []
    let pending: Buffer = Buffer.alloc(0)
    let seen = 0
    let inflated = 0
    let settled = false
    const inflate = gzipped ? zlib().createGunzip() : null

    const finish = (complete: boolean) => {
      if (settled) return
      settled = true
      input.off('data', onRaw).off('end', onInputEnd).off('error', onEnd).off('close', onInputEnd)
      inflate?.destroy()
      input.pause()
      const body = new PassThrough()
      for (const chunk of raw) body.write(chunk)
      // pipeline ends or destroys the replay when the client finishes or hangs up, so git never waits on a dead request.
      if (input.readableEnded) body.end()
      else pipeline(input, body, () => undefined)
      resolve({ commands, complete, body })
    }
    const onPlain = (chunk: Buffer) => {
      // A few KiB of gzip inflate to gigabytes of commands: the cap holds for what is parsed, not only for what was sent.
      inflated += chunk.length
      if (settled || inflated > MAX_COMMAND_BYTES) return finish(false)
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
      const { used, flushed } = parsePkts(pending, commands)
      pending = pending.subarray(used)
      if (flushed) finish(true)
    }
    const onRaw = (chunk: Buffer) => {
      raw.push(chunk)
      seen += chunk.length
      if (seen > MAX_COMMAND_BYTES) return finish(false)
      if (inflate) inflate.write(chunk)
      else onPlain(chunk)
    }
    const onEnd = () => finish(false)
    // The last compressed bytes may still be inflating when the request ends: the list may yet be complete.
    const onInputEnd = () => {
      if (!inflate || inflate.destroyed) finish(false)
      else if (!inflate.writableEnded) inflate.end()
    }
    inflate?.on('data', onPlain).once('end', onEnd).once('error', onEnd)
    input.on('data', onRaw).once('end', onInputEnd).once('error', onEnd).once('close', onInputEnd)
  })
}
