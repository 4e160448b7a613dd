// The shell executor: asks its source for jobs while below its concurrency limit (woken at once by notify(), else by
// a poll) and runs each with JobRun, as a gitlab-runner with the shell executor would, sandboxed or not.
import type { Logger } from '../../core/logger.js'
import { JobRun, type Isolation } from './job-run.js'
import { RunnerRefused, type Executor, type JobSource } from './source.js'

export interface ShellExecutorOptions {
  /** Jobs' working directories. */
  buildsDir: string
  /** Jobs run at the same time at most. */
  concurrency: number
  runnerId?: string
  isolation: Isolation
  /** How to run this collab (node and its script): jobs find it as `collab` after their PATH's own. */
  collabCommand?: readonly string[]
  /** How often the queue is asked when nobody calls notify(). */
  pollMs?: number
  /** After SIGTERM, how long a job's process group has before SIGKILL. */
  killGraceMs?: number
  traceIntervalMs?: number
  log: Logger
  /** Told when the server refuses the runner's token: the executor has stopped asking for jobs. */
  onRefused?(err: Error): void
}

export class ShellExecutor implements Executor {
  private readonly runs = new Map<number, { run: JobRun; done: Promise<void> }>()
  private active = false
  private pumping: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private readonly runnerId: string
  /** Aborts a job request the server holds open (long polling) when the executor stops. */
  private readonly stopping = new AbortController()

  constructor(private readonly source: JobSource, private readonly opts: ShellExecutorOptions) {
    this.runnerId = opts.runnerId ?? 'collab-shell-runner'
  }

  start(): void {
    if (this.active) return
    this.active = true
    this.timer = setInterval(() => this.notify(), this.opts.pollMs ?? 3000)
    this.timer.unref()
    this.notify()
  }

  /** Asks for jobs now (the coordinator calls it when it enqueues some). */
  notify(): void {
    if (!this.active) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = null
      if (this.again) {
        this.again = false
        this.notify()
      }
    })
  }

  private async pump(): Promise<void> {
    while (this.active && this.runs.size < this.opts.concurrency) {
      let payload
      try {
        payload = await this.source.requestJob(this.stopping.signal)
      } catch (err) {
        if (this.stopping.signal.aborted) return
        if (err instanceof RunnerRefused) {
          // Asking again would only be refused again: this runner stops taking jobs (the ones it runs finish).
          this.active = false
          if (this.timer) clearInterval(this.timer)
          this.opts.onRefused?.(err)
          return
        }
        this.opts.log.error('requesting a CI job failed', err)
        return
      }
      if (!payload) return
      if (!this.active) {
        // Stopped while asking: the job was handed over anyway, so it is reported rather than left running.
        this.opts.log.warn(`job ${payload.id} arrived while the runner stopped`)
      }
      this.launch(new JobRun({
        source: this.source, buildsDir: this.opts.buildsDir, runnerId: this.runnerId, isolation: this.opts.isolation,
        collabCommand: this.opts.collabCommand, killGraceMs: this.opts.killGraceMs ?? 10_000, traceIntervalMs: this.opts.traceIntervalMs, log: this.opts.log,
      }, payload), payload.id)
    }
  }

  private launch(run: JobRun, jobId: number) {
    if (!this.active) run.interrupt('stopped')
    const done = run.run().finally(() => {
      this.runs.delete(jobId)
      this.notify()
    })
    this.runs.set(jobId, { run, done })
  }

  running(): number {
    return this.runs.size
  }

  async stop(): Promise<void> {
    this.active = false
    this.stopping.abort()
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.pumping
    for (const { run } of this.runs.values()) run.interrupt('stopped')
    await Promise.all([...this.runs.values()].map((r) => r.done))
  }
}
