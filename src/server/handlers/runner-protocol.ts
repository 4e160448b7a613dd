// What runners call: registration, verification, job requests, state updates, log appends and artifacts (gitlab-runner's
// network/gitlab.go). Status codes and headers are the protocol: gitlab-runner stops a job on 403 and on Job-Status.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import * as protocol from '../services/ci/index.js'

/** How often a runner should send the log, in seconds (GitLab's default trace update interval). */
const TRACE_INTERVAL = '3'
const text = (status: number, headers: Record<string, string> = {}) =>
  ({ status, raw: String(status), headers: { 'Content-Type': 'text/plain', ...headers } })

export const runnerProtocolHandlers = {
  registerRunner: (input, ctx) => ({ status: 201, body: protocol.registerRunner(ctx, input) }),
  unregisterRunner: (input, ctx) => {
    protocol.unregisterRunner(ctx, input.token)
    return { status: 204 }
  },
  verifyRunner: (input, ctx) => {
    protocol.authenticateRunner(ctx, input.token)
    return text(200)
  },
  resetRunnerTokenByToken: (input, ctx) => ({ status: 201, body: protocol.resetTokenByToken(ctx, input.token) }),
  requestJob: async (input, ctx) => {
    const answer = await protocol.requestJob(ctx, input)
    if (answer.status === 204) return { status: 204, headers: { 'X-GitLab-Last-Update': answer.lastUpdate } }
    return { status: 201, body: answer.payload }
  },
  updateJobState: async (input, ctx) => {
    const status = await protocol.updateJobState(ctx, input.id, protocol.jobTokenOf(ctx, input.token), input)
    return text(200, { 'Job-Status': status, 'X-GitLab-Trace-Update-Interval': TRACE_INTERVAL })
  },
  appendJobTrace: async (input, ctx) => {
    const token = protocol.jobTokenOf(ctx, input.token)
    const r = await protocol.appendTrace(ctx, input.id, token, ctx.headers?.['content-range'], ctx.rawBody ?? Buffer.alloc(0))
    return { status: 202, headers: { 'Job-Status': r.status, Range: `0-${r.size}`, 'X-GitLab-Trace-Update-Interval': TRACE_INTERVAL } }
  },
  uploadJobArtifacts: async (input, ctx) => {
    await protocol.uploadArtifacts(ctx, input.id, protocol.jobTokenOf(ctx, input.token), input.file, input.expire_in)
    return text(201)
  },
  downloadJobArtifactsForRunner: async (input, ctx) => {
    const { stream, size } = await protocol.artifactsForRunner(ctx, input.id, protocol.jobTokenOf(ctx, input.token))
    return { status: 200, stream, headers: { 'Content-Type': 'application/zip', 'Content-Length': String(size) } }
  },
} satisfies Handlers<typeof contract.runnerProtocol>
