// The runner's side of GitLab's runner protocol over HTTP (gitlab-runner's network/gitlab.go): registration,
// job requests with long polling, state updates, log appends by byte offset, and artifacts streamed both ways.
// It speaks to `collab serve` and to GitLab alike; only the contract's shapes are shared with the server.
import { createReadStream, createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { pipeline } from 'node:stream/promises'
import type { RunnerJobPayload } from '../contract/entities/runner-job.js'
import { CollabError } from '../core/errors.js'
import { VERSION } from '../core/version.js'

export interface RunnerInfo { name: string; executor: string; platform: string; architecture: string }

/** The answer to a job request: a job, or none with the queue state to send back (X-GitLab-Last-Update). */
export type JobRequest = { job: RunnerJobPayload } | { job: null; lastUpdate: string | null }

export interface TraceAnswer { status: number; size: number | null; jobStatus: string | null }

/** A protocol answer other than the ones the runner acts on; 403 means the token is gone, which stops the work. */
export class ProtocolError extends CollabError {
  constructor(readonly statusCode: number, what: string, body: string) {
    super('RUNNER_PROTOCOL', `${what}: HTTP ${statusCode}${body ? ` ${body.slice(0, 200)}` : ''}`, { status: statusCode })
  }
}

interface Answer { status: number; headers: IncomingMessage['headers']; text: string }

export class RunnerConnection {
  private readonly api: string

  constructor(readonly url: string, private readonly info: RunnerInfo, private readonly timeoutMs = 60_000) {
    this.api = `${url.replace(/\/+$/, '')}/api/v4`
  }

  private async send(method: string, path: string, opts: { json?: unknown; body?: Buffer; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Answer> {
    const url = new URL(this.api + path)
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
    const body = opts.json !== undefined ? Buffer.from(JSON.stringify(opts.json)) : opts.body
    const headers: Record<string, string> = { 'User-Agent': `collab-runner ${VERSION}`, Accept: 'application/json', ...opts.headers }
    if (opts.json !== undefined) headers['Content-Type'] = 'application/json'
    if (body) headers['Content-Length'] = String(body.length)
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, signal: opts.signal }, (res) => readAnswer(res, resolve, reject))
      req.on('error', reject)
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer from ${this.url} within ${this.timeoutMs} ms`)))
      req.end(body)
    })
  }

  private infoBody() {
    return { name: this.info.name, version: VERSION, platform: this.info.platform, architecture: this.info.architecture, executor: this.info.executor }
  }

  /** POST /runners with a registration token (the deprecated flow); the answer holds the runner's own token. */
  async register(registrationToken: string, settings: Record<string, unknown>): Promise<{ id: number; token: string }> {
    const a = await this.send('POST', '/runners', { json: { token: registrationToken, info: this.infoBody(), ...settings } })
    if (a.status !== 201) throw new ProtocolError(a.status, 'registering the runner', a.text)
    return JSON.parse(a.text) as { id: number; token: string }
  }

  /** True when the token is valid; false on 403 (the runner was removed). */
  async verify(token: string): Promise<boolean> {
    const a = await this.send('POST', '/runners/verify', { json: { token } })
    if (a.status === 403) return false
    if (a.status >= 300) throw new ProtocolError(a.status, 'verifying the runner', a.text)
    return true
  }

  async unregister(token: string): Promise<void> {
    const a = await this.send('DELETE', '/runners', { json: { token } })
    if (a.status !== 204 && a.status !== 403) throw new ProtocolError(a.status, 'unregistering the runner', a.text)
  }

  /** POST /jobs/request; the server may hold it open until a job arrives when `lastUpdate` is its latest state. */
  async requestJob(token: string, lastUpdate: string | null, signal?: AbortSignal): Promise<JobRequest> {
    const a = await this.send('POST', '/jobs/request', { json: { token, info: this.infoBody(), ...(lastUpdate ? { last_update: lastUpdate } : {}) }, signal })
    if (a.status === 201) return { job: JSON.parse(a.text) as RunnerJobPayload }
    if (a.status === 204) return { job: null, lastUpdate: headerOf(a, 'x-gitlab-last-update') }
    throw new ProtocolError(a.status, 'asking for a job', a.text)
  }

  /** PUT /jobs/:id; answers the Job-Status the server holds (canceled, …) when it says one. */
  async updateJob(jobId: number, jobToken: string, update: { state: string; failure_reason?: string; exit_code?: number; checksum?: string; bytesize?: number }): Promise<string | null> {
    const { checksum, bytesize, ...rest } = update
    const json = { token: jobToken, ...rest, ...(checksum ? { checksum, output: { checksum, bytesize } } : {}) }
    const a = await this.send('PUT', `/jobs/${jobId}`, { json, headers: { 'JOB-TOKEN': jobToken } })
    if (a.status !== 200 && a.status !== 202) throw new ProtocolError(a.status, `updating job ${jobId}`, a.text)
    return headerOf(a, 'job-status')
  }

  /** PATCH /jobs/:id/trace at `offset`; 416 answers the size the server has. */
  async appendTrace(jobId: number, jobToken: string, offset: number, chunk: Buffer): Promise<TraceAnswer> {
    const end = offset + Math.max(chunk.length, 1) - 1
    const a = await this.send('PATCH', `/jobs/${jobId}/trace`, {
      body: chunk, headers: { 'JOB-TOKEN': jobToken, 'Content-Type': 'text/plain', 'Content-Range': `${offset}-${end}` },
    })
    const range = /^0-(\d+)$/.exec(headerOf(a, 'range') ?? '')
    const size = range ? Number(range[1]) : null
    if (a.status === 202 || a.status === 416) return { status: a.status, size, jobStatus: headerOf(a, 'job-status') }
    throw new ProtocolError(a.status, `sending the log of job ${jobId}`, a.text)
  }

  /** POST /jobs/:id/artifacts: the zip streamed from disk as the multipart field `file`. */
  async uploadArtifacts(jobId: number, jobToken: string, zipPath: string, expireIn: string | null): Promise<void> {
    const boundary = `collab-runner-${jobId}-${(await stat(zipPath)).mtimeMs.toString(36)}`
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/zip\r\n\r\n`)
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const size = (await stat(zipPath)).size
    const url = new URL(`${this.api}/jobs/${jobId}/artifacts`)
    url.searchParams.set('artifact_format', 'zip')
    url.searchParams.set('artifact_type', 'archive')
    if (expireIn) url.searchParams.set('expire_in', expireIn)
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
    const answer = await new Promise<Answer>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: {
          'JOB-TOKEN': jobToken, 'User-Agent': `collab-runner ${VERSION}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + size + tail.length),
        },
      }, (res) => readAnswer(res, resolve, reject))
      req.on('error', reject)
      req.write(head)
      const file = createReadStream(zipPath)
      file.on('error', (err) => req.destroy(err))
      file.on('end', () => req.end(tail))
      file.pipe(req, { end: false })
    })
    if (answer.status !== 201) throw new ProtocolError(answer.status, `uploading the artifacts of job ${jobId}`, answer.text)
  }

  /** GET /jobs/:id/artifacts of a dependency, with the running job's token, streamed to `toPath`. */
  async downloadArtifacts(dependencyId: number, jobToken: string, toPath: string): Promise<void> {
    const url = new URL(`${this.api}/jobs/${dependencyId}/artifacts`)
    const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
    await new Promise<void>((resolve, reject) => {
      const req = request(url, { headers: { 'JOB-TOKEN': jobToken, 'User-Agent': `collab-runner ${VERSION}` } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume()
          reject(new ProtocolError(res.statusCode ?? 0, `downloading the artifacts of job ${dependencyId}`, ''))
          return
        }
        pipeline(res, createWriteStream(toPath)).then(resolve, reject)
      })
      req.on('error', reject)
      req.end()
    })
  }
}

/** A response read whole: its status, headers and text. */
function readAnswer(res: IncomingMessage, resolve: (a: Answer) => void, reject: (err: Error) => void) {
  const chunks: Buffer[] = []
  res.on('data', (c: Buffer) => chunks.push(c))
  res.on('error', reject)
  res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }))
}

function headerOf(a: Answer, name: string): string | null {
  const v = a.headers[name]
  return Array.isArray(v) ? v.join(', ') : v ?? null
}
