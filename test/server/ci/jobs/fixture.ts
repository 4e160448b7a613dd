// A CI world for the Jobs API tests: a private project with members of every role, pipelines of planned jobs, and the
// coordinator (the runner's side of the job protocol) to move jobs as a runner would: take, log, upload, finish.
import { mkdtempSync, rmSync } from 'node:fs'
import { createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import yazl from 'yazl'
import type { JobSpec } from '../../../../src/server/ci/plan-types.js'
import { createCoordinator } from '../../../../src/server/ci/coordinator.js'
import { processPipeline } from '../../../../src/server/ci/scheduler.js'
import type { JobCoordinator, JobPayload } from '../../../../src/server/ci/runner/protocol.js'
import { allocateIid } from '../../../../src/server/store/issues.js'
import { insertJob, type JobRow } from '../../../../src/server/store/ci-jobs.js'
import { insertPipeline, type PipelineRow } from '../../../../src/server/store/pipelines.js'
import { createProject, createUser, expectStatus, type TestUser } from '../../../helpers/api.js'
import type { TestServer } from '../../../helpers/server.js'

export const NOW = '2024-01-02T03:04:05.000Z'

export interface CiWorld {
  server: TestServer
  owner: TestUser
  maintainer: TestUser
  developer: TestUser
  reporter: TestUser
  guest: TestUser
  stranger: TestUser
  project: { id: number; path_with_namespace: string; web_url: string }
  sha: string
  coordinator: JobCoordinator
}

/** Users of every role on one private project with a README commit on main. */
export async function ciWorld(server: TestServer, prefix = ''): Promise<CiWorld> {
  const owner = await createUser(server, `${prefix}owner`, { name: 'Olive Owner' })
  const roles = { maintainer: 40, developer: 30, reporter: 20, guest: 10 } as const
  const project = await createProject(owner.api, { name: `${prefix}builds`, visibility: 'private', initialize_with_readme: true })
  const members: Record<string, TestUser> = {}
  for (const [role, level] of Object.entries(roles)) {
    members[role] = await createUser(server, `${prefix}${role}`)
    expectStatus(await owner.api.post(`/projects/${project.id}/members`, { user_id: members[role].id, access_level: level }), 201)
  }
  const stranger = await createUser(server, `${prefix}stranger`)
  // Developers act on main's jobs here: main is protected by default, and its jobs are only for who may push or merge there.
  expectStatus(await owner.api.request('PATCH', `/projects/${project.id}/protected_branches/main`, { json: { merge_access_level: 30 } }), 200)
  const sha = expectStatus(await owner.api.get(`/projects/${project.id}/repository/branches/main`), 200).body.commit.id
  return {
    server, owner, stranger, project, sha, coordinator: createCoordinator(server.app),
    maintainer: members.maintainer, developer: members.developer, reporter: members.reporter, guest: members.guest,
  }
}

/** A planned job as the config layer would hand it over. */
export function jobSpec(name: string, stageIdx = 0, over: Partial<JobSpec> = {}): JobSpec {
  return {
    name, stage: ['build', 'test', 'deploy'][stageIdx] ?? 'test', stageIdx, script: ['echo hi'], beforeScript: [], afterScript: [],
    variables: {}, when: 'on_success', startIn: null, allowFailure: false, allowFailureExitCodes: null, needs: null,
    dependencies: null, artifacts: null, coverageRegex: null, retry: { max: 0, when: [] }, timeout: null, interruptible: false,
    image: null, services: null, cache: null, tags: [], ...over,
  }
}

/**
 * A pipeline of `specs` on `ref`, inserted as pipeline creation does after planning, then processed by the scheduler
 * (first stage pending, manual jobs manual). Planning itself is the config layer's, tested there.
 */
export function seedPipeline(w: CiWorld, specs: JobSpec[], opts: { ref?: string; user?: TestUser } = {}): { pipeline: PipelineRow; jobs: JobRow[] } {
  const app = w.server.app
  const user = opts.user ?? w.owner
  const pipeline = insertPipeline(app.db, {
    project_id: w.project.id, iid: allocateIid(app.db, w.project.id, 'pipelines'), sha: w.sha, before_sha: null, ref: opts.ref ?? 'main',
    tag: 0, source: 'push', status: 'created', yaml_errors: null, stages: JSON.stringify(['build', 'test', 'deploy']), user_id: user.id,
    merge_request_id: null, created_at: NOW, updated_at: NOW, committed_at: NOW,
  })
  const jobs = specs.map((s) => insertJob(app.db, {
    project_id: w.project.id, pipeline_id: pipeline.id, name: s.name, stage: s.stage, stage_idx: s.stageIdx, status: 'created',
    when_: s.when, allow_failure: s.allowFailure ? 1 : 0, spec: JSON.stringify(s), ref: pipeline.ref, tag: 0, sha: w.sha,
    user_id: user.id, created_at: NOW, updated_at: NOW,
  }))
  processPipeline(app, pipeline.id)
  return { pipeline, jobs }
}

export interface Taken { id: number; token: string; payload: JobPayload }

/** Takes the oldest pending job as a runner does: it is running now and holds a job token. */
export async function takeJob(w: Pick<CiWorld, 'coordinator'>): Promise<Taken> {
  const payload = await w.coordinator.requestJob({ id: 'builtin', concurrency: 4 })
  if (!payload) throw new Error('no pending job to take')
  return { id: payload.id, token: payload.token, payload }
}

/** A zip of `files` written with yazl into a fresh temp file. */
export async function zipOf(files: Record<string, string | Buffer>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'collab-zip-'))
  const out = join(dir, 'upload.zip')
  const zip = new yazl.ZipFile()
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name, { mtime: new Date(NOW) })
  zip.end()
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(out)).on('close', resolve).on('error', reject))
  return out
}

/** Runs a taken job to its end: a log, optional artifacts, then the state. */
export async function finish(w: Pick<CiWorld, 'coordinator'>, t: Taken, opts: { log?: string; files?: Record<string, string | Buffer>; expireIn?: string | null; state?: 'success' | 'failed' } = {}) {
  if (opts.log) {
    const { size } = await w.coordinator.appendTrace(t.id, t.token, 0, Buffer.from(opts.log))
    // An empty append releases the bytes held back in case they began a masked value, as an executor's last append does.
    await w.coordinator.appendTrace(t.id, t.token, size, Buffer.alloc(0))
  }
  if (opts.files) {
    const path = await zipOf(opts.files)
    await w.coordinator.uploadArtifacts(t.id, t.token, { path, expire_in: opts.expireIn ?? null, artifact_type: 'archive', artifact_format: 'zip' })
    rmSync(join(path, '..'), { recursive: true, force: true })
  }
  await w.coordinator.updateJob(t.id, t.token, { state: opts.state ?? 'success', ...(opts.state === 'failed' ? { failure_reason: 'script_failure', exit_code: 1 } : {}) })
}
