// Where a backup archive's bytes go: a stream (the server's answer, or a CLI pipeline with compression or progress), or
// straight into an open file (`collab backup create --data` to a plain .tar). A sink says when it is done with each
// chunk, so the archive writer can read the next file chunks into the same memory instead of fresh buffers: 200 fresh
// 1 MB buffers cost 40-50 ms of CPU (page faults and zeroing of new memory) against reusing a few.
import { write } from 'node:fs'
import { PassThrough } from 'node:stream'

export interface ArchiveSink {
  /** Takes `chunk`; `release` runs once the sink no longer holds its memory. Resolves when the sink can take more. */
  write(chunk: Buffer, release?: () => void): Promise<void>
  /** Resolves once every chunk is where it goes; after a failure, rejects with it once nothing is in flight. */
  end(): Promise<void>
  fail(err: Error): void
  /** True once the reader went away (a client that hung up): the writer stops walking. */
  readonly closed: boolean
}

const CHUNK = 1024 * 1024

/** The archive's readable side, which notes what it is piped into. */
class ArchiveStream extends PassThrough {
  reader: NodeJS.WritableStream | null = null
  private pipes = 0

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    this.reader = ++this.pipes === 1 ? destination : null
    return super.pipe(destination, options)
  }
}

/**
 * The archive as a readable stream (`out`). A chunk handed to a stream may be held by whatever reads it, so in general
 * nothing is released and each chunk is memory of its own. Piped into an HTTP response (the server's answer), though,
 * a chunk is done with once the response has written it to its socket: every byte written into `out` is either still
 * in `out`, or in the response's queue (its writableLength, the socket's included), or with the kernel.
 */
export class StreamSink implements ArchiveSink {
  readonly out = new ArchiveStream({ highWaterMark: CHUNK })
  private stopped = false
  /** Bytes written into `out` so far, and the chunks not yet released with the count at which each ends. */
  private written = 0
  private readonly held: { end: number; release: () => void }[] = []

  constructor() {
    this.out.once('close', () => (this.stopped = true))
  }

  get closed() {
    return this.stopped
  }

  /** Releases the chunks the response has written to its socket; none while `out` is read by anything else. */
  private reclaim() {
    const reader = this.out.reader
    // node:http by name, not imported: `collab backup create --data` loads this file and never needs it.
    if (!reader || !(reader instanceof process.getBuiltinModule('node:http').ServerResponse)) return
    const flushed = this.written - this.out.readableLength - this.out.writableLength - reader.writableLength
    while (this.held.length && this.held[0].end <= flushed) this.held.shift()!.release()
  }

  async write(chunk: Buffer, release?: () => void): Promise<void> {
    if (this.stopped) throw new Error('the backup was not read to its end')
    this.written += chunk.length
    if (release) this.held.push({ end: this.written, release })
    const more = this.out.write(chunk)
    this.reclaim()
    if (more) return
    await new Promise<void>((resolve) => {
      const done = () => {
        this.out.off('drain', done).off('close', done)
        resolve()
      }
      this.out.once('drain', done).once('close', done)
    })
    this.reclaim()
  }

  async end() {
    this.out.end()
  }

  fail(err: Error) {
    this.out.destroy(err)
  }
}

/**
 * Writes in flight at once: the kernel copies a chunk into the page cache on a libuv thread while the next is read.
 * Writes to one file take its inode lock in turn, and more at once spin on it: 4 cost 485 ms of CPU for a 200 MB
 * backup where 1 or 2 cost 235-250 (tar 180), with 2 the quicker.
 */
const WRITES_IN_FLIGHT = 2

/**
 * The archive written into the open file `fd` from its start, each chunk shown to `see` first (in order). Writes go
 * through libuv's threads at explicit offsets, a few at a time, so the copy into the file overlaps the next reads; a
 * chunk is released when its write has completed.
 */
export class FileSink implements ArchiveSink {
  private at = 0
  private inFlight = 0
  private failure: Error | null = null
  private wake: (() => void) | null = null

  constructor(private readonly fd: number, private readonly see?: (chunk: Buffer) => void) {}

  get closed() {
    return this.failure !== null
  }

  private settle() {
    const wake = this.wake
    this.wake = null
    wake?.()
  }

  /** Writes `chunk` at `position`, the rest again where the file system took only part of it. */
  private put(chunk: Buffer, position: number, release?: () => void) {
    this.inFlight++
    write(this.fd, chunk, 0, chunk.length, position, (err, written) => {
      if (!err && written < chunk.length) {
        this.inFlight--
        return this.put(chunk.subarray(written), position + written, release)
      }
      this.inFlight--
      if (err) this.failure ??= err
      else release?.()
      this.settle()
    })
  }

  /** Waits until `ready`; after a failure, until no write is in flight (the caller may close the file then), and throws it. */
  private async until(ready: () => boolean) {
    while (this.failure ? this.inFlight > 0 : !ready()) await new Promise<void>((resolve) => (this.wake = resolve))
    if (this.failure) throw this.failure
  }

  async write(chunk: Buffer, release?: () => void): Promise<void> {
    if (this.failure) return this.until(() => false)
    this.see?.(chunk)
    this.put(chunk, this.at, release)
    this.at += chunk.length
    await this.until(() => this.inFlight < WRITES_IN_FLIGHT)
  }

  end() {
    return this.until(() => this.inFlight === 0)
  }

  fail(err: Error) {
    this.failure ??= err
    this.settle()
  }
}
