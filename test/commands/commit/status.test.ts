// collab commit status set / list: what CI scripts run, from flags or from a CI job's environment alone.
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { cli, ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

async function project() {
  const p = await createProject(t.root, { name: 'demo' })
  const c = await commit(t.root, p.id, { commit_message: 'Seed', actions: [create('a.txt', 'a\n')] })
  return { p, sha: c.id as string }
}

const statuses = async (id: number, sha: string, query: Record<string, string | boolean> = {}) =>
  expectStatus(await t.root.get(`/projects/${id}/repository/commits/${sha}/statuses`, { query }), 200)

describe('commit status set', () => {
  it('posts a status with every flag, reports on stderr, and the commit shows it', async () => {
    const { p, sha } = await project()
    expect(await t.c.run(['commit', 'status', 'set', sha, '-p', 'root/demo', '--state', 'success', '--name', 'build', '--ref', 'master',
      '--target-url', 'http://ci.example.com/jobs/1', '--description', 'Built in 3s', '--coverage', '87.5']))
      .toEqual(ok('', `Set build to success on ${sha.slice(0, 8)} (master)\n`))
    expect((await statuses(p.id, sha)).body.map((s: any) => [s.name, s.status, s.ref, s.target_url, s.description, s.coverage, s.author.username]))
      .toEqual([['build', 'success', 'master', 'http://ci.example.com/jobs/1', 'Built in 3s', 87.5, 'root']])
    expect(expectStatus(await t.root.get(`/projects/${p.id}/repository/commits/${sha}`), 200).body.status).toBe('success')
  })

  it('updates the status of the same name and ref; --context is the same as --name', async () => {
    const { p, sha } = await project()
    for (const state of ['pending', 'running', 'failed']) {
      expect((await t.c.run(['commit', 'status', 'set', 'master', '-p', 'root/demo', '-s', state, '--context', 'lint'])).exitCode).toBe(0)
    }
    expect((await statuses(p.id, sha)).body.map((s: any) => [s.name, s.status])).toEqual([['lint', 'failed']])
    expect(await t.c.run(['commit', 'status', 'list', sha, '-p', 'root/demo', '--all-statuses', '--json'])).toEqual(ok(`${(await statuses(p.id, sha, { all: true })).text}\n`))
  })

  it('works from a CI job\'s environment alone: host, project, commit and ref from CI_*, the token from COLLAB_TOKEN', async () => {
    const { p, sha } = await project()
    const env = {
      CI: 'true', CI_API_V4_URL: t.server.api, CI_JOB_TOKEN: 'not-used', CI_PROJECT_ID: String(p.id),
      CI_COMMIT_SHA: sha, CI_COMMIT_REF_NAME: 'master', COLLAB_TOKEN: t.server.rootToken,
    }
    const bare = cli()
    try {
      expect(await bare.run(['commit', 'status', 'set', '--state', 'running', '--name', 'test'], { env })).toEqual(ok('', `Set test to running on ${sha.slice(0, 8)} (master)\n`))
      expect(await bare.run(['commit', 'status', 'list', sha], { env })).toEqual(ok('test\trunning\tmaster\t\t\t\t2024-01-02T03:04:05.000Z\n'))
    } finally {
      bare.cleanup()
    }
  })

  it('sends CI_JOB_TOKEN as JOB-TOKEN to CI_API_V4_URL, for CI_PROJECT_ID and CI_COMMIT_SHA', async () => {
    const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = []
    const stub = createServer((req, res) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body })
        res.writeHead(201, { 'Content-Type': 'application/json' })
        const sent = JSON.parse(body)
        res.end(JSON.stringify({ id: seen.length, sha: req.url!.split('/').pop(), ref: sent.ref ?? 'master', status: sent.state, name: sent.name }))
      })
    })
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve))
    const bare = cli()
    try {
      const base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`
      const env = { CI_API_V4_URL: `${base}/api/v4`, CI_JOB_TOKEN: 'job-token-1', CI_PROJECT_ID: '42', CI_COMMIT_SHA: 'c0ffee00c0ffee00', CI_COMMIT_REF_NAME: 'v1.0' }
      expect(await bare.run(['commit', 'status', 'set', '-s', 'success', '-n', 'deploy', '--target-url', 'http://x/1'], { env }))
        .toEqual(ok('', 'Set deploy to success on c0ffee00 (v1.0)\n'))
      // The job's commit named explicitly still gets the job's ref; another commit leaves the ref to the server.
      expect(await bare.run(['commit', 'status', 'set', 'c0ffee00c0ffee00', '-s', 'running', '-n', 'e2e'], { env })).toEqual(ok('', 'Set e2e to running on c0ffee00 (v1.0)\n'))
      expect(await bare.run(['commit', 'status', 'set', 'deadbeef', '-s', 'failed', '-n', 'e2e'], { env })).toEqual(ok('', 'Set e2e to failed on deadbeef (master)\n'))
      expect(seen.map((r) => [r.method, r.url, r.headers['job-token'], r.headers['private-token'], JSON.parse(r.body)])).toEqual([
        ['POST', '/api/v4/projects/42/statuses/c0ffee00c0ffee00', 'job-token-1', undefined, { state: 'success', name: 'deploy', ref: 'v1.0', target_url: 'http://x/1' }],
        ['POST', '/api/v4/projects/42/statuses/c0ffee00c0ffee00', 'job-token-1', undefined, { state: 'running', name: 'e2e', ref: 'v1.0' }],
        ['POST', '/api/v4/projects/42/statuses/deadbeef', 'job-token-1', undefined, { state: 'failed', name: 'e2e' }],
      ])
    } finally {
      bare.cleanup()
      await new Promise((resolve) => stub.close(resolve))
    }
  })

  it('fails with exit 2 when there is no commit and no CI_COMMIT_SHA, and with exit 1 for an unknown commit', async () => {
    await project()
    expect(await t.c.run(['commit', 'status', 'set', '-p', 'root/demo', '-s', 'success'])).toEqual({
      stdout: '', stderr: "error: missing required argument 'sha'\nhint: pass the commit, or run inside a CI job that sets CI_COMMIT_SHA\n", exitCode: 2,
    })
    expect(await t.c.run(['commit', 'status', 'set', 'f'.repeat(40), '-p', 'root/demo', '-s', 'success'])).toEqual({
      stdout: '', stderr: 'error: 404 Commit Not Found\n', exitCode: 1,
    })
  })
})

describe('commit status list', () => {
  it('prints name, state, ref, coverage, description, URL and date per status, filtered by --name and --ref', async () => {
    const { p, sha } = await project()
    expectStatus(await t.root.post(`/projects/${p.id}/statuses/${sha}`, { state: 'success', name: 'build', ref: 'master', coverage: 50, description: 'ok', target_url: 'http://ci/1' }), 201)
    expectStatus(await t.root.post(`/projects/${p.id}/statuses/${sha}`, { state: 'failed', name: 'lint', ref: 'master' }), 201)
    const result = await t.c.run(['commit', 'status', sha, '-p', 'root/demo'])
    expect(result.stdout.split('\n').sort()).toEqual([
      '', 'build\tsuccess\tmaster\t50\tok\thttp://ci/1\t2024-01-02T03:04:05.000Z', 'lint\tfailed\tmaster\t\t\t\t2024-01-02T03:04:05.000Z',
    ])
    expect(await t.c.run(['commit', 'status', 'list', sha, '-p', 'root/demo', '--name', 'lint'])).toEqual(ok('lint\tfailed\tmaster\t\t\t\t2024-01-02T03:04:05.000Z\n'))
    expect(await t.c.run(['commit', 'status', 'list', sha, '-p', 'root/demo', '--ref', 'other'])).toEqual(ok(''))
  })
})
