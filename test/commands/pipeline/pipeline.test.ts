// collab pipeline (and collab ci) against a real server: lists, views with their exit codes, runs with variables, the
// actions, lint, and --watch waiting for the end; piped output compared whole.
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { finish, jobSpec, NOW, seedPipeline, takeJob } from '../../server/ci/jobs/fixture.js'
import { ok } from '../cli.js'
import { useCiCli } from './fixture.js'
import { until } from '../../helpers/wait.js'

const f = useCiCli()
const url = (path: string) => `${f.server.url}/owner/builds/-/${path}`

/** An HTTP pass-through to `target` counting the requests for `path` (the query aside). */
async function countingProxy(target: string, path: RegExp) {
  let seen = 0
  const server = http.createServer((req, res) => {
    if (path.test(req.url?.split('?')[0] ?? '')) seen++
    const out = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    out.on('error', () => res.destroy())
    req.pipe(out)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    count: () => seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

/** build (done), test (pending), deploy (manual, later stage). */
async function seeded(state: 'success' | 'failed' = 'success') {
  const seed = seedPipeline(f.w, [jobSpec('build', 0), jobSpec('test', 1), jobSpec('deploy', 2, { when: 'manual' })])
  await finish(f.w, await takeJob(f.w), { log: 'building\n', state })
  return seed
}

const fields = (status: string, extra: Record<string, string> = {}) => [
  'id\t1', 'iid\t1', `status\t${status}`, 'ref\tmain', `sha\t${f.w.sha}`, 'source\tpush', 'user\towner', `created_at\t${NOW}`,
  `started_at\t${NOW}`, `finished_at\t${extra.finished_at ?? ''}`, `duration\t${extra.duration ?? ''}`, 'yaml_errors\t', `web_url\t${url('pipelines/1')}`,
].join('\n')

describe('collab pipeline list', () => {
  it('prints one tab-separated line per pipeline, newest first, with the filters passed on', async () => {
    await seeded()
    seedPipeline(f.w, [jobSpec('other', 0)], { ref: 'dev' })
    expect(await f.c.run(['pipeline', 'list', ...f.p])).toEqual(ok(
      `2\tpending\tdev\t${f.w.sha.slice(0, 8)}\tpush\t${NOW}\n1\trunning\tmain\t${f.w.sha.slice(0, 8)}\tpush\t${NOW}\n`))
    expect(await f.c.run(['ci', 'ls', '-r', 'main', ...f.p])).toEqual(ok(`1\trunning\tmain\t${f.w.sha.slice(0, 8)}\tpush\t${NOW}\n`))
    expect(await f.c.run(['ci', 'ls', '--status', 'success', ...f.p])).toEqual(ok(''))
  })

  it('prints the API\'s JSON unchanged with --json', async () => {
    await seeded()
    const body = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines`), 200).text
    expect(await f.c.run(['ci', 'list', '--json', ...f.p])).toEqual(ok(`${body}\n`))
  })
})

describe('collab pipeline view', () => {
  it('prints the fields, then one line per job in stage order, and exits 0 while it runs', async () => {
    await seeded()
    expect(await f.c.run(['pipeline', 'view', '1', ...f.p])).toEqual(ok(
      `${fields('running')}\n--\n1\tbuild\tbuild\tsuccess\t0\tfalse\n2\ttest\ttest\tpending\t\tfalse\n3\tdeploy\tdeploy\tcreated\t\tfalse\n`))
  })

  it('exits 1 when the pipeline failed', async () => {
    await seeded('failed')
    const result = await f.c.run(['ci', 'view', '1', ...f.p])
    expect(result.stdout.split('\n').slice(0, 3)).toEqual(['id\t1', 'iid\t1', 'status\tfailed'])
    expect(result.stdout).toContain('--\n1\tbuild\tbuild\tfailed\t0\tfalse\n2\ttest\ttest\tskipped\t\tfalse\n3\tdeploy\tdeploy\tskipped\t\tfalse\n')
    expect(result.exitCode).toBe(1)
  })

  it("defaults to the latest pipeline of the CI job's branch, or of the clone's current branch", async () => {
    await seeded()
    seedPipeline(f.w, [jobSpec('other', 0)], { ref: 'dev' })
    expect((await f.c.run(['ci', 'view', '--web', ...f.p], { env: { CI_COMMIT_REF_NAME: 'dev' } }))).toEqual(ok(`${url('pipelines/2')}\n`))
    expect((await f.c.run(['ci', 'view', '--web', '-r', 'main', ...f.p]))).toEqual(ok(`${url('pipelines/1')}\n`))
    const clone = mkdtempSync(join(tmpdir(), 'collab-ci-clone-'))
    try {
      await execa('git', ['init', '-q', '-b', 'feature'], { cwd: clone })
      expect(await f.c.run(['ci', 'view', ...f.p], { cwd: clone })).toEqual({
        stdout: '', exitCode: 1,
        stderr: "error: no pipeline on 'feature' in owner/builds\nhint: see 'collab pipeline list', or start one with 'collab pipeline run'\n",
      })
    } finally {
      rmSync(clone, { recursive: true, force: true })
    }
  })

  it('names the missing branch as a usage error outside a clone', async () => {
    expect(await f.c.run(['ci', 'view', ...f.p])).toEqual({
      stdout: '', exitCode: 2,
      stderr: 'error: no pipeline given, and the current directory is not on a git branch\nhint: pass a pipeline id, or --ref BRANCH\n',
    })
  })

  it("prints the API's JSON unchanged with --json, keeping the exit code", async () => {
    await seeded('failed')
    const body = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines/1`), 200).text
    expect(await f.c.run(['ci', 'view', '1', '--json', ...f.p])).toEqual({ stdout: `${body}\n`, stderr: '', exitCode: 1 })
  })

  it('with --watch, piped, waits until the pipeline finishes and prints it once', async () => {
    const { jobs } = seedPipeline(f.w, [jobSpec('build', 0)])
    // Piped, it prints nothing until the end: a pass-through in front of the server tells when it has read the running
    // pipeline twice, and only then does the job end.
    const proxy = await countingProxy(f.server.url, /\/pipelines\/1$/)
    try {
      const watching = f.c.run(['ci', 'view', '1', '--watch', '--interval', '0.1', '--host', proxy.url, '--token', f.w.owner.token, ...f.p])
      await until('two reads of the running pipeline', () => proxy.count() >= 2)
      await finish(f.w, await takeJob(f.w), { state: 'failed' })
      const result = await watching
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe(`${fields('failed', { finished_at: NOW, duration: '0' })}\n--\n${jobs[0].id}\tbuild\tbuild\tfailed\t0\tfalse\n`)
    } finally {
      await proxy.close()
    }
  })

  it('answers 404 for a pipeline of no such id', async () => {
    expect(await f.c.run(['ci', 'view', '77', ...f.p])).toEqual({ stdout: '', stderr: 'error: 404 Not found\n', exitCode: 1 })
  })
})

describe('collab pipeline run, retry, cancel, delete', () => {
  it('starts a pipeline on a ref with variables, and prints its URL', async () => {
    await commit(f.w.owner.api, f.w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'job:\n  script: echo "$A"\n')] })
    await f.server.app.tasks.idle()
    const before = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines`), 200).body.length
    const result = await f.c.run(['ci', 'run', '-r', 'main', '--variable', 'A=x=1', '--variable-file', 'CFG=a: 1', ...f.p])
    const id = before + 1
    expect(result).toEqual(ok(`${url(`pipelines/${id}`)}\n`, `Created pipeline #${id} on main in owner/builds\n`))
    const variables = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines/${id}/variables`), 200).body
    expect(variables).toEqual([{ key: 'A', value: 'x=1', variable_type: 'env_var' }, { key: 'CFG', value: 'a: 1', variable_type: 'file' }])
    const pipeline = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines/${id}`), 200).body
    expect([pipeline.source, pipeline.ref]).toEqual(['api', 'main'])
  })

  it("passes on the server's refusal of a ref without a CI configuration", async () => {
    const result = await f.c.run(['ci', 'run', '-r', 'main', ...f.p])
    expect([result.exitCode, result.stdout]).toEqual([1, ''])
    expect(result.stderr).toMatch(/^error: .*\(HTTP 400\)\n$/)
  })

  it('cancels, retries and deletes a pipeline', async () => {
    await seeded()
    expect(await f.c.run(['ci', 'cancel', '1', ...f.p])).toEqual(ok('', 'Canceled pipeline #1 in owner/builds\n'))
    expect(expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines/1`), 200).body.status).toBe('canceled')
    const retried = await f.c.run(['ci', 'retry', '-r', 'main', '--json', ...f.p])
    expect(retried.stderr).toBe('Retried pipeline #1 in owner/builds\n')
    expect(JSON.parse(retried.stdout)).toMatchObject({ id: 1, status: 'running' })
    expect(await f.c.run(['ci', 'delete', '1', ...f.p])).toEqual({
      stdout: '', exitCode: 2, stderr: 'error: --yes is required when not running interactively\n',
    })
    expect(await f.c.run(['ci', 'delete', '1', '-y', ...f.p])).toEqual(ok('', 'Deleted pipeline #1 in owner/builds\n'))
    expect((await f.w.owner.api.get(`/projects/${f.w.project.id}/pipelines/1`)).status).toBe(404)
  })

  it("passes on GitLab's refusal when a developer deletes a pipeline", async () => {
    await seeded()
    const { cliAs } = await import('./fixture.js')
    const dev = await cliAs(f.server, f.w.developer.token, 'developer')
    try {
      expect(await dev.run(['ci', 'delete', '1', '-y', ...f.p])).toEqual({ stdout: '', stderr: 'error: 403 Forbidden\n', exitCode: 1 })
    } finally {
      dev.cleanup()
    }
  })
})
