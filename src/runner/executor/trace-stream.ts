// The executor's side of a job log: masked values replaced before anything leaves the runner, output coalesced into a
// few appends a second, at most one chunk held, offsets kept in step with the server, and a stop when the server
// says the job was canceled.
import { Writable } from 'node:stream'
import type { Logger } from '../../core/logger.js'
import { maskBuffers, maskChunk } from '../../core/mask.js'
import { JobGone, TraceOffsetMismatch, type JobSource } from './source.js'

export interface TraceStreamOptions {
  /** Bytes gathered before an append is sent at once (and the producer waits for it). */
  chunkBytes?: number
  /** How long output may wait before it is sent. */
  intervalMs?: number
  onCanceled(): void
  log: Logger
  /** Values never to be sent: the job's masked variables and its token. */
  masks?: string[]
}

export class TraceStream extends Writable {
  private offset = 0
  private pending: Buffer[] = []
  private pendingBytes = 0
  private timer: NodeJS.Timeout | null = null
  private sending: Promise<void> = Promise.resolve()
  /** The coordinator no longer takes output (the job was canceled, or its token is gone). */
  stopped = false
  private readonly chunkBytes: number
  private readonly intervalMs: number
  private readonly masks: Buffer[]
  /** The end of what was written that could start a masked value, until the next write shows whether it does. */
  private held: Buffer = Buffer.alloc(0)

  constructor(private readonly source: JobSource, private readonly jobId: number, private readonly token: string, private readonly opts: TraceStreamOptions) {
    const chunkBytes = opts.chunkBytes ?? 64 * 1024
    super({ highWaterMark: chunkBytes })
    this.chunkBytes = chunkBytes
    this.intervalMs = opts.intervalMs ?? 300
    this.masks = maskBuffers([...(opts.masks ?? []), token])
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void) {
    this.pending.push(chunk)
    this.pendingBytes += chunk.length
    if (this.pendingBytes >= this.chunkBytes) {
      // The producer waits for this append: its pipe is paused, so about a chunk at most is held here.
      this.sendPending(false).then(() => callback(), callback)
      return
    }
    this.timer ??= setTimeout(() => void this.sendPending(false), this.intervalMs)
    callback()
  }

  /** Sends everything written so far, also writes still queued in the stream. */
  async flush(final = false): Promise<void> {
    // A write's callback runs once every write before it went through _write.
    await new Promise<void>((resolve) => this.write(Buffer.alloc(0), () => resolve()))
    await this.sendPending(final)
  }

  /** Appends go one after the other, each at the offset the previous one answered. */
  private sendPending(final: boolean): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const { out, keep } = maskChunk(Buffer.concat([this.held, ...this.pending]), this.masks, final)
    this.held = keep
    this.pending = []
    this.pendingBytes = 0
    this.sending = this.sending.then(async () => {
      // An empty append at the end tells an in-process server that the log is complete.
      if (out.length > 0 || final) await this.send(out)
    })
    return this.sending
  }

  /** A line of the runner's own (headers, errors), in order with the script output written before it. */
  line(text: string) {
    this.write(Buffer.from(text + '\n'))
  }

  private async send(data: Buffer, retried = false): Promise<void> {
    if (this.stopped) return
    try {
      const res = await this.source.appendTrace(this.jobId, this.token, this.offset, data)
      this.offset = res.size
      if (res.status !== 'running') this.stop(res.status === 'canceled')
    } catch (err) {
      // Out of step (a lost answer): continue from the size the server has, once.
      if (err instanceof TraceOffsetMismatch && !retried) {
        this.offset = err.size
        return this.send(data, true)
      }
      // A refused token is the normal end of a canceled job: its token died with it.
      this.opts.log[err instanceof JobGone ? 'info' : 'warn'](`job ${this.jobId}: trace append refused: ${(err as Error).message}`)
      this.stop(false)
    }
  }

  private stop(canceled: boolean) {
    this.stopped = true
    if (canceled) this.opts.onCanceled()
  }

  /** Sends everything left; the stream takes nothing more. */
  async finish(): Promise<void> {
    await this.flush(true)
  }
}
