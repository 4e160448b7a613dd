// The runner `collab serve` embeds until it runs one as a child process: the runner's executor fed by the coordinator
// directly, with the same wire payload a runner gets over HTTP (dependencies copied from the artifacts store instead
// of downloaded). It masks the log itself, as every runner does, so the coordinator keeps the bytes as sent.
import { copyFile } from 'node:fs/promises'
import { isCollabError } from '../../core/errors.js'
import { JobGone, TraceOffsetMismatch, type JobSource } from '../../runner/executor/source.js'
import type { AppDeps } from '../context.js'
import { artifactsPath } from './artifacts.js'
import { createCoordinator } from './coordinator.js'
import { wirePayload } from './runner-payload.js'

export function localJobSource(app: AppDeps, runnerId: string): JobSource {
  const coordinator = createCoordinator(app)
  return {
    async requestJob() {
      const payload = await coordinator.requestJob({ id: runnerId, concurrency: 1, masksOwnTrace: true })
      return payload && wirePayload(app, payload, { maximum_timeout: null })
    },
    updateJob: (jobId, token, update) => coordinator.updateJob(jobId, token, update),
    async appendTrace(jobId, token, offset, chunk) {
      try {
        return await coordinator.appendTrace(jobId, token, offset, chunk)
      } catch (err) {
        const range = isCollabError(err) && err.status === 416 ? /^0-(\d+)$/.exec(err.headers.Range ?? '') : null
        if (range) throw new TraceOffsetMismatch(Number(range[1]))
        if (isCollabError(err) && err.status === 403) throw new JobGone(err.message)
        throw err
      }
    },
    uploadArtifacts: (jobId, token, zipPath, expireIn) =>
      coordinator.uploadArtifacts(jobId, token, { path: zipPath, expire_in: expireIn, artifact_type: 'archive', artifact_format: 'zip' }),
    downloadArtifacts: (dependencyId, _token, toPath) => copyFile(artifactsPath(app.layout, dependencyId), toPath),
    onCancel: (jobId, listener) => coordinator.onCancel(jobId, listener),
  }
}
