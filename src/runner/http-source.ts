// The executor's jobs from a server over HTTP: one runner token, the queue state kept between requests so the
// server can hold the next one open until a job arrives (long polling), and protocol answers mapped to what the
// executor acts on (416: resume at the server's size; 403: the job is gone).
import type { JobUpdate, RunnerJobPayload } from '../contract/entities/runner-job.js'
import { ProtocolError, type RunnerConnection } from './connection.js'
import { JobGone, RunnerRefused, TraceOffsetMismatch, type JobSource } from './executor/source.js'

const gone = (err: unknown) => err instanceof ProtocolError && (err.statusCode === 403 || err.statusCode === 404)

export class HttpJobSource implements JobSource {
  private lastUpdate: string | null = null

  constructor(private readonly connection: RunnerConnection, private readonly token: string) {}

  async requestJob(signal?: AbortSignal): Promise<RunnerJobPayload | null> {
    let answer
    try {
      answer = await this.connection.requestJob(this.token, this.lastUpdate, signal)
    } catch (err) {
      if (err instanceof ProtocolError && err.statusCode === 403) throw new RunnerRefused((err as Error).message)
      throw err
    }
    if (answer.job) return answer.job
    this.lastUpdate = answer.lastUpdate
    return null
  }

  async updateJob(jobId: number, token: string, update: JobUpdate): Promise<{ status: string }> {
    try {
      return { status: (await this.connection.updateJob(jobId, token, update)) ?? update.state }
    } catch (err) {
      if (gone(err)) return { status: 'canceled' }
      throw err
    }
  }

  async appendTrace(jobId: number, token: string, offset: number, chunk: Buffer) {
    let answer
    try {
      answer = await this.connection.appendTrace(jobId, token, offset, chunk)
    } catch (err) {
      if (gone(err)) throw new JobGone((err as Error).message)
      throw err
    }
    if (answer.status === 416) throw new TraceOffsetMismatch(answer.size ?? offset)
    return { size: answer.size ?? offset + chunk.length, status: answer.jobStatus ?? 'running' }
  }

  uploadArtifacts(jobId: number, token: string, zipPath: string, expireIn: string | null): Promise<void> {
    return this.connection.uploadArtifacts(jobId, token, zipPath, expireIn)
  }

  downloadArtifacts(dependencyId: number, token: string, toPath: string): Promise<void> {
    return this.connection.downloadArtifacts(dependencyId, token, toPath)
  }
}
