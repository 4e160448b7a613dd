// The executor's side of a job log: output coalesced into a few appends a second, at most one chunk held, offsets
// kept in step with the coordinator, and a stop when the coordinator says the job was canceled.
import { Writable } from 'node:stream'
import { isCollabError } from '../../../core/errors.js'
import type { Logger } from '../../../core/logger.js'
import type { JobCoordinator } from './protocol.js'

export interface TraceStreamOptions {
  /** Bytes gathered before an append is sent at once (and the producer waits for it). */
  chunkBytes?: number
  /** How long output may wait before it is sent. */
  intervalMs?: number
  onCanceled(): void
  log: Logger
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

  constructor(private readonly coordinator: JobCoordinator, private readonly jobId: number, private readonly token: string, private readonly opts: TraceStreamOptions) {
    const chunkBytes = opts.chunkBytes ?? 64 * 1024
    super({ highWaterMark: chunkBytes })
    this.chunkBytes = chunkBytes
    this.intervalMs = opts.intervalMs ?? 300
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
    const data = Buffer.concat(this.pending)
    this.pending = []
    this.pendingBytes = 0
    this.sending = this.sending.then(async () => {
      // An empty append at the end releases what the coordinator held back while masking.
      if (data.length > 0 || final) await this.send(data)
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
      const res = await this.coordinator.appendTrace(this.jobId, this.token, this.offset, data)
      this.offset = res.size
      if (res.status !== 'running') this.stop(res.status === 'canceled')
    } catch (err) {
      const range = isCollabError(err) && err.status === 416 ? /^0-(\d+)$/.exec(err.headers.Range ?? '') : null
      // Out of step (a lost answer): continue from the size the coordinator has, once.
      if (range && !retried) {
        this.offset = Number(range[1])
        return this.send(data, true)
      }
      // A 403 is the normal end of a canceled job: its token died with it.
      const refused = isCollabError(err) && err.status === 403
      this.opts.log[refused ? 'info' : 'warn'](`job ${this.jobId}: trace append refused: ${(err as Error).message}`)
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
