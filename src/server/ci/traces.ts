// Job logs on disk: appended by byte offset as a runner streams them, masked variable values replaced, size capped.
import { existsSync, statSync } from 'node:fs'
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DataLayout } from '../../core/paths.js'
import { CollabError } from '../../core/errors.js'
import { maskBuffers, maskChunk } from '../../core/mask.js'

export interface TraceAppendOptions {
  /** Values of masked variables; each occurrence is stored as `[MASKED]`. */
  masks: string[]
  /** Bytes kept at most; past it one notice is appended and the rest dropped (GitLab's job log limit). */
  capBytes: number
}

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
