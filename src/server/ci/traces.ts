// Job logs on disk: appended by byte offset as a runner streams them, masked variable values replaced, size capped.
import { existsSync, statSync } from 'node:fs'
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DataLayout } from '../../core/paths.js'
import { CollabError } from '../../core/errors.js'

export interface TraceAppendOptions {
  /** Values of masked variables; each occurrence is stored as `[MASKED]`. */
  masks: string[]
  /** Bytes kept at most; past it one notice is appended and the rest dropped (GitLab's job log limit). */
  capBytes: number
}

const MASKED = Buffer.from('[MASKED]')

const tracePath = (layout: DataLayout, jobId: number) => join(layout.traces, `${jobId}.log`)
/**
 * The end of the appended bytes that could be the start of a masked value: held back until the next append shows
 * whether it is, so a value split over two chunks is never visible. An empty append releases it (the end of a job).
 */
const heldPath = (layout: DataLayout, jobId: number) => join(layout.traces, `${jobId}.held`)

export const capNotice = (capBytes: number) =>
  `\nJob's log exceeded limit of ${capBytes} bytes.\nJob execution will continue but no more output will be collected.\n`

const tails = new Map<string, Promise<unknown>>()

/** Appends run one at a time per job: the offset check and the write must see the same size. */
async function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve()
  const mine = previous.catch(() => undefined).then(fn)
  tails.set(key, mine)
  try {
    return await mine
  } finally {
    if (tails.get(key) === mine) tails.delete(key)
  }
}

export function traceSize(layout: DataLayout, jobId: number): number {
  try {
    return statSync(tracePath(layout, jobId)).size
  } catch {
    return 0
  }
}

export async function readTrace(layout: DataLayout, jobId: number, offset = 0): Promise<Buffer> {
  let file
  try {
    file = await open(tracePath(layout, jobId), 'r')
  } catch {
    return Buffer.alloc(0)
  }
  try {
    const { size } = await file.stat()
    const start = Math.max(0, Math.min(offset, size))
    const out = Buffer.alloc(size - start)
    if (out.length > 0) await file.read(out, 0, out.length, start)
    return out
  } finally {
    await file.close()
  }
}

export async function eraseTrace(layout: DataLayout, jobId: number): Promise<void> {
  await rm(tracePath(layout, jobId), { force: true })
  await rm(heldPath(layout, jobId), { force: true })
}

/** Returns the trace's new size; throws 416 (with GitLab's `Range: 0-<size>`) when `offset` is not the current size. */
export function appendTrace(layout: DataLayout, jobId: number, offset: number, chunk: Buffer, opts: TraceAppendOptions): Promise<number> {
  return serialized(tracePath(layout, jobId), () => appendNow(layout, jobId, offset, chunk, opts))
}

async function appendNow(layout: DataLayout, jobId: number, offset: number, chunk: Buffer, opts: TraceAppendOptions): Promise<number> {
  const size = traceSize(layout, jobId)
  if (offset !== size) {
    throw new CollabError('TRACE_RANGE', '416 Range Not Satisfiable', { status: 416, headers: { Range: `0-${size}` } })
  }
  if (size > opts.capBytes) return size
  const held = await readHeld(layout, jobId)
  const masks = maskBuffers(opts.masks)
  const { out, keep } = maskChunk(Buffer.concat([held, chunk]), masks, chunk.length === 0)
  let write = out
  if (size + out.length > opts.capBytes) {
    write = Buffer.concat([out.subarray(0, opts.capBytes - size), Buffer.from(capNotice(opts.capBytes))])
  }
  if (write.length > 0) {
    await mkdir(layout.traces, { recursive: true })
    const file = await open(tracePath(layout, jobId), 'a')
    try {
      await file.write(write)
    } finally {
      await file.close()
    }
  }
  await writeHeld(layout, jobId, size + write.length > opts.capBytes ? Buffer.alloc(0) : keep)
  return size + write.length
}

async function readHeld(layout: DataLayout, jobId: number): Promise<Buffer> {
  try {
    return await readFile(heldPath(layout, jobId))
  } catch {
    return Buffer.alloc(0)
  }
}

async function writeHeld(layout: DataLayout, jobId: number, held: Buffer) {
  const path = heldPath(layout, jobId)
  if (held.length > 0) {
    await mkdir(layout.traces, { recursive: true })
    await writeFile(path, held)
  } else if (existsSync(path)) await rm(path, { force: true })
}

/** Each value and, where it differs, its URL-encoded form (how it appears inside URLs), longest first. */
function maskBuffers(values: string[]): Buffer[] {
  const set = new Set<string>()
  for (const v of values) {
    if (v === '') continue
    set.add(v)
    set.add(encodeURIComponent(v))
  }
  return [...set].map((v) => Buffer.from(v)).sort((a, b) => b.length - a.length)
}

/**
 * Replaces every whole masked value in `data`; unless `final`, the longest end of the rest that is the start of
 * a masked value is returned as `keep` instead of being written.
 */
export function maskChunk(data: Buffer, masks: Buffer[], final: boolean): { out: Buffer; keep: Buffer } {
  if (masks.length === 0) return { out: data, keep: Buffer.alloc(0) }
  const parts: Buffer[] = []
  let pos = 0
  for (;;) {
    let at = -1
    let len = 0
    for (const m of masks) {
      const i = data.indexOf(m, pos)
      // Masks are longest first, so on a tie the longer value wins.
      if (i !== -1 && (at === -1 || i < at)) {
        at = i
        len = m.length
      }
    }
    // A value that runs to the end may be the start of a longer one ('abc' of 'abcdef'): wait for the rest.
    if (at === -1 || (!final && startsAMask(data.subarray(at), masks))) break
    parts.push(data.subarray(pos, at), MASKED)
    pos = at + len
  }
  const held = final ? 0 : heldLength(data, pos, masks)
  parts.push(data.subarray(pos, data.length - held))
  return { out: Buffer.concat(parts), keep: Buffer.from(data.subarray(data.length - held)) }
}

/** Whether `tail` is a proper start of some masked value (more bytes could complete it). */
const startsAMask = (tail: Buffer, masks: Buffer[]) => masks.some((m) => m.length > tail.length && m.subarray(0, tail.length).equals(tail))

function heldLength(data: Buffer, from: number, masks: Buffer[]): number {
  for (let n = Math.min(masks[0].length - 1, data.length - from); n > 0; n--) {
    if (startsAMask(data.subarray(data.length - n), masks)) return n
  }
  return 0
}
