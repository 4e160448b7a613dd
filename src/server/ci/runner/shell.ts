// The built-in shell executor: asks the coordinator for jobs while below its concurrency limit (woken at once by
// notify(), else by a slow poll) and runs each with JobRun, as a gitlab-runner with the shell executor would.
import { serverHostEnv } from '../../../core/child-env.js'
import type { Logger } from '../../../core/logger.js'
import type { DataLayout } from '../../../core/paths.js'
import { JobRun } from './job-run.js'
import type { Executor, JobCoordinator } from './protocol.js'

export interface ShellExecutorOptions {
  layout: DataLayout
  /** Jobs run at the same time at most. */
  concurrency: number
  runnerId?: string
  /** HOME and PATH for job shells (the server's own); defaults to this process's. */
  hostEnv?: Record<string, string>
  /** How often the queue is asked when nobody calls notify(). */
  pollMs?: number
  /** After SIGTERM, how long a job's process group has before SIGKILL. */
  killGraceMs?: number
  traceIntervalMs?: number
  log: Logger
}

export class ShellExecutor implements Executor {
  private readonly runs = new Map<number, { run: JobRun; done: Promise<void> }>()
  private active = false
  private pumping: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private readonly runnerId: string

  constructor(private readonly coordinator: JobCoordinator, private readonly opts: ShellExecutorOptions) {
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
        payload = await this.coordinator.requestJob({ id: this.runnerId, concurrency: this.opts.concurrency })
      } catch (err) {
        this.opts.log.error('requesting a CI job failed', err)
        return
      }
      if (!payload) return
      if (!this.active) {
        // Stopped while asking: the job was handed over anyway, so it is reported rather than left running.
        this.opts.log.warn(`job ${payload.id} arrived while the runner stopped`)
      }
      this.launch(new JobRun({
        coordinator: this.coordinator, layout: this.opts.layout, runnerId: this.runnerId, hostEnv: this.opts.hostEnv ?? serverHostEnv(),
        killGraceMs: this.opts.killGraceMs ?? 10_000, traceIntervalMs: this.opts.traceIntervalMs, log: this.opts.log,
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
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.pumping
    for (const { run } of this.runs.values()) run.interrupt('stopped')
    await Promise.all([...this.runs.values()].map((r) => r.done))
  }
}
