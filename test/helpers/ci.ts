// CI fixtures: a server with the built-in runner on, projects whose commits carry a .gitlab-ci.yml, and waiting for
// pipelines and jobs to reach a status.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import type { Clock } from '../../src/core/clock.js'
import { latestPipelineJobs, pipelineJobs, type JobRow } from '../../src/server/store/ci-jobs.js'
import { findPipelineById, type PipelineRow } from '../../src/server/store/pipelines.js'
import { api, createProject, expectStatus, type Api } from './api.js'
import { commit, create } from './repository.js'
import { startTestServer, type TestServer } from './server.js'

/**
 * A test server; with `runner`, its instance runner runs jobs (two at a time unless told) as under `collab serve`: the
 * built `collab runner` as a child process, in bubblewrap where it works here.
 */
export const startCiServer = (opts: { clock?: Clock; runner?: boolean; concurrency?: number; log?: boolean } = {}) =>
  startTestServer({ clock: opts.clock, log: opts.log, runner: opts.runner ? { concurrency: opts.concurrency ?? 2 } : undefined })

/** A project of root's whose first commit on master holds `.gitlab-ci.yml` (and any other files given), its push pipeline made. */
export async function ciProject(server: TestServer, name: string, ciYaml: string | null, files: Record<string, string> = {}, input: Record<string, unknown> = {}) {
  const root = api(server, server.rootToken)
  const project = await createProject(root, { name, ...input })
  const actions = Object.entries({ ...(ciYaml === null ? {} : { '.gitlab-ci.yml': ciYaml }), ...files }).map(([path, content]) => create(path, content))
  const first = await commit(root, project.id, { commit_message: 'Initial commit', actions })
  // The commit's push pipeline is made in the background: settled here, tests see pipelines in a fixed order.
  await server.app.tasks.idle()
  return { project, root, sha: first.id as string }
}

/** Polls the pipeline's row until `until` holds (background work: triggers, the scheduler, the runner). */
export async function waitForPipeline(server: TestServer, id: number, until: (p: PipelineRow) => boolean, timeoutMs = 20_000): Promise<PipelineRow> {
  const start = Date.now()
  for (;;) {
    const p = findPipelineById(server.app.db, id)
    if (p && until(p)) return p
    if (Date.now() - start > timeoutMs) throw new Error(`pipeline ${id} stayed ${p?.status}: ${JSON.stringify(jobStates(server, id))}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const FINISHED = new Set(['success', 'failed', 'canceled', 'skipped'])
export const waitForFinished = (server: TestServer, id: number, timeoutMs?: number) => waitForPipeline(server, id, (p) => FINISHED.has(p.status), timeoutMs)

/** Pipelines of a project, oldest first, once background tasks (triggers) are done. */
export async function projectPipelines(server: TestServer, as: Api, projectId: number): Promise<any[]> {
  await server.app.tasks.idle()
  return expectStatus(await as.get(`/projects/${projectId}/pipelines`, { query: { sort: 'asc' } }), 200).body
}

/** `name:status` of every latest job, in stage order: compact to compare whole. */
export const jobStates = (server: TestServer, pipelineId: number) =>
  latestPipelineJobs(server.app.db, pipelineId).map((j) => `${j.name}:${j.status}`)

export const allJobs = (server: TestServer, pipelineId: number): JobRow[] => pipelineJobs(server.app.db, pipelineId)

export const jobNamed = (server: TestServer, pipelineId: number, name: string): JobRow => {
  const job = latestPipelineJobs(server.app.db, pipelineId).find((j) => j.name === name)
  expect(job, `job ${name}`).toBeDefined()
  return job!
}

/** Creates a pipeline through POST /projects/:id/pipeline, expecting 201. */
export async function runPipeline(as: Api, projectId: number, ref = 'master', variables?: { key: string; value: string; variable_type?: string }[]) {
  return expectStatus(await as.post(`/projects/${projectId}/pipeline`, { ref, ...(variables ? { variables } : {}) }), 201).body
}

/**
 * Gates a job waits at until the test opens them (`until curl -sf "$GATE" > /dev/null; do sleep 0.1; done`, the URL
 * in a variable): URLs answering 200 once opened, 404 before. A sandboxed job sees none of the test's files in /tmp,
 * but shares its network.
 */
export async function startGates() {
  const opened = new Set<string>()
  const server = http.createServer((req, res) => {
    res.statusCode = opened.has(req.url ?? '') ? 200 : 404
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url: (name: string) => `${base}/${name}`,
    open: (name: string) => void opened.add(`/${name}`),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    }),
  }
}
