// collab job against a real server: lists, a view, the log (followed while a runner appends to it, ending with the
// job's result), the actions, and artifacts downloaded, extracted, saved, by ref, and with nothing but a job's environment.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { finish, jobSpec, NOW, seedPipeline, takeJob } from '../../server/ci/jobs/fixture.js'
import { ok } from '../cli.js'
import { useCiCli } from '../pipeline/fixture.js'

const f = useCiCli()
const files = { 'dist/app.js': 'console.log(1)\n', 'README.txt': 'read me\n' }

/** build (done, with artifacts), test (pending), deploy (manual). */
async function seeded() {
  const seed = seedPipeline(f.w, [jobSpec('build', 0), jobSpec('test', 1), jobSpec('deploy', 2, { when: 'manual' })])
  await finish(f.w, await takeJob(f.w), { log: 'building\n', files })
  return seed
}

describe('collab job list and view', () => {
  it("prints a project's jobs newest first, a pipeline's in stage order, filtered by status", async () => {
    await seeded()
    const line = (id: number, status: string, name: string, duration = '') => `${id}\t${status}\t${name}\t${name}\tmain\t1\t${duration}\t${NOW}\n`
    expect(await f.c.run(['job', 'list', ...f.p])).toEqual(ok(line(3, 'created', 'deploy') + line(2, 'pending', 'test') + line(1, 'success', 'build', '0')))
    expect(await f.c.run(['job', 'list', '--pipeline', '1', '-s', 'success', '-s', 'pending', ...f.p])).toEqual(ok(line(1, 'success', 'build', '0') + line(2, 'pending', 'test')))
    expect(await f.c.run(['job', 'ls', '--latest', 'main', '--scope', 'created', ...f.p])).toEqual(ok(line(3, 'created', 'deploy')))
  })

  it('shows a job named by id or by name, as label<TAB>value lines', async () => {
    await seeded()
    const job = (await f.c.run(['job', 'view', 'build', '-r', 'main', ...f.p]))
    expect(job).toEqual(ok([
      'id\t1', 'name\tbuild', 'status\tsuccess', 'stage\tbuild', 'ref\tmain', `sha\t${f.w.sha}`, 'pipeline\t1', 'allow_failure\tfalse',
      'failure_reason\t', 'user\towner', 'runner\tcollab built-in shell runner', `created_at\t${NOW}`, `started_at\t${NOW}`, `finished_at\t${NOW}`,
      'duration\t0', 'coverage\t', 'artifacts\tartifacts.zip (261 bytes)', 'artifacts_expire_at\t2024-02-01T03:04:05.000Z',
      `web_url\t${f.server.url}/owner/builds/-/jobs/1`, '',
    ].join('\n')))
    expect((await f.c.run(['job', 'view', '1', ...f.p])).stdout).toBe(job.stdout)
    const body = expectStatus(await f.w.owner.api.get(`/projects/${f.w.project.id}/jobs/1`), 200).text
    expect(await f.c.run(['job', 'view', '#1', '--json', ...f.p])).toEqual(ok(`${body}\n`))
  })

  it('names the jobs there are when a name is unknown', async () => {
    await seeded()
    expect(await f.c.run(['job', 'view', 'lint', '--pipeline', '1', ...f.p])).toEqual({
      stdout: '', exitCode: 1, stderr: "error: pipeline #1 of owner/builds has no job named 'lint'\nhint: its jobs: build, test, deploy\n",
    })
  })
})

describe('completion of a job argument', () => {
  it("offers the ids and names of the jobs of the branch's latest pipeline, or of --pipeline", async () => {
    await seeded()
    seedPipeline(f.w, [jobSpec('other', 0)], { ref: 'dev' })
    expect(await f.c.run(['__complete', 'job', 'trace', ...f.p, '-r', 'main', ''])).toEqual(ok([
      '1\tbuild: build (success)', '2\ttest: test (pending)', '3\tdeploy: deploy (created)',
      'build\t#1 build (success)', 'test\t#2 test (pending)', 'deploy\t#3 deploy (created)', '',
    ].join('\n')))
    expect(await f.c.run(['__complete', 'job', 'artifacts', 'download', ...f.p, '--pipeline', '2', 'o'])).toEqual(ok('other\t#4 build (pending)\n'))
  })
})

describe('collab job trace', () => {
  it('prints the whole log', async () => {
    await seeded()
    expect(await f.c.run(['job', 'trace', 'build', '-r', 'main', ...f.p])).toEqual(ok('building\n'))
    expect(await f.c.run(['job', 'trace', '2', ...f.p])).toEqual(ok(''))
  })

  it('with --follow, prints what the job appends while it runs and exits with its result', async () => {
    seedPipeline(f.w, [jobSpec('build', 0)])
    const t = await takeJob(f.w)
    let size = (await f.w.coordinator.appendTrace(t.id, t.token, 0, Buffer.from('step 1\n'))).size
    const following = f.c.start(['job', 'trace', 'build', '--follow', '--interval', '0.1', '-r', 'main', ...f.p])
    // Each part appended only once the previous one is printed: the CLI must pick up what came after its first read.
    await following.printed('step 1\n')
    size = (await f.w.coordinator.appendTrace(t.id, t.token, size, Buffer.from('step 2 ✓\n'))).size
    await following.printed('step 2 ✓\n')
    size = (await f.w.coordinator.appendTrace(t.id, t.token, size, Buffer.from('step 3 failed\n'))).size
    await f.w.coordinator.appendTrace(t.id, t.token, size, Buffer.alloc(0))
    await f.w.coordinator.updateJob(t.id, t.token, { state: 'failed', failure_reason: 'script_failure', exit_code: 1 })
    expect(await following.result).toEqual({ stdout: 'step 1\nstep 2 ✓\nstep 3 failed\n', stderr: 'Job #1 (build) failed\n', exitCode: 1 })
  })

  it('with --follow, exits 0 for a job that succeeded', async () => {
    await seeded()
    expect(await f.c.run(['job', 'trace', '1', '-f', ...f.p])).toEqual(ok('building\n', 'Job #1 (build) succeeded\n'))
  })
})

describe('collab job retry, cancel, play, erase, keep', () => {
  it('acts on a job named by id or name and says what it did', async () => {
    await seeded()
    expect(await f.c.run(['job', 'retry', 'build', '-r', 'main', ...f.p])).toEqual(ok('', 'Retried job #1 as #4 (build) in owner/builds\n'))
    expect(await f.c.run(['job', 'cancel', '2', ...f.p])).toEqual(ok('', 'Canceled job #2 (test) in owner/builds\n'))
    expect(await f.c.run(['job', 'keep', '1', ...f.p])).toEqual(ok('', 'Kept the artifacts of job #1 (build) in owner/builds\n'))
    expect(await f.c.run(['job', 'erase', '1', ...f.p])).toEqual(ok('', 'Erased job #1 (build) in owner/builds\n'))
    expect(await f.c.run(['job', 'trace', '1', ...f.p])).toEqual(ok(''))
  })

  it('plays a manual job with variables', async () => {
    seedPipeline(f.w, [jobSpec('deploy', 0, { when: 'manual' })])
    const played = await f.c.run(['job', 'play', 'deploy', '--pipeline', '1', '--variable', 'TARGET=prod', '--json', ...f.p])
    expect(played.stderr).toBe('Started job #1 (deploy) in owner/builds\n')
    expect(JSON.parse(played.stdout)).toMatchObject({ id: 1, status: 'pending' })
    const taken = await f.w.coordinator.requestJob({ id: 'builtin', concurrency: 1 })
    expect(taken?.variables.find((v) => v.key === 'TARGET')).toMatchObject({ key: 'TARGET', value: 'prod' })
  })

  it("passes on GitLab's refusal to play a job that is not manual", async () => {
    await seeded()
    const result = await f.c.run(['job', 'play', '1', ...f.p])
    expect([result.exitCode, result.stdout]).toEqual([1, ''])
    expect(result.stderr).toMatch(/^error: .*\(HTTP 400\)\n$|^error: 400 /)
  })
})

describe('collab job artifacts download', () => {
  it('extracts the archive into a directory', async () => {
    await seeded()
    expect(await f.c.run(['job', 'artifacts', 'download', 'build', '-r', 'main', '-o', 'out', ...f.p]))
      .toEqual(ok('', 'Extracted 2 files from the artifacts of job #1 in owner/builds into out\n'))
    const out = join(f.c.configDir, 'out')
    expect([readFileSync(join(out, 'dist/app.js'), 'utf8'), readFileSync(join(out, 'README.txt'), 'utf8')]).toEqual([files['dist/app.js'], files['README.txt']])
  })

  it('saves the zip byte for byte with --zip, one file with --path, to stdout with -o -', async () => {
    await seeded()
    const archive = await fetch(`${f.server.api}/projects/${f.w.project.id}/jobs/1/artifacts`, { headers: { 'PRIVATE-TOKEN': f.w.owner.token } })
    const zip = Buffer.from(await archive.arrayBuffer())
    expect(await f.c.run(['job', 'artifacts', 'download', '1', '--zip', ...f.p])).toEqual(ok('', 'Saved the artifacts archive of job #1 in owner/builds to artifacts.zip\n'))
    expect(readFileSync(join(f.c.configDir, 'artifacts.zip')).equals(zip)).toBe(true)
    expect(await f.c.run(['job', 'artifacts', 'download', '1', '--path', 'dist/app.js', ...f.p])).toEqual(ok('', 'Saved dist/app.js of job #1 in owner/builds to app.js\n'))
    expect(readFileSync(join(f.c.configDir, 'app.js'), 'utf8')).toBe(files['dist/app.js'])
    expect(await f.c.run(['job', 'artifacts', 'download', '1', '--path', 'README.txt', '-o', '-', ...f.p])).toEqual(ok(files['README.txt']))
  })

  it('takes the named job of the latest successful pipeline of a ref', async () => {
    seedPipeline(f.w, [jobSpec('build', 0)])
    await finish(f.w, await takeJob(f.w), { files })
    expect(await f.c.run(['job', 'artifacts', 'download', '--job', 'build', '--ref', 'main', '--path', 'dist/app.js', '-o', '-', ...f.p]))
      .toEqual(ok(files['dist/app.js']))
    const missing = await f.c.run(['job', 'artifacts', 'download', '--job', 'nope', '--ref', 'main', ...f.p])
    expect([missing.exitCode, missing.stdout, readdirSync(f.c.configDir).filter((n) => !n.endsWith('.json'))]).toEqual([1, '', []])
    expect(missing.stderr).toMatch(/^error: 404 /)
  })

  it("works with nothing but a CI job's environment (JOB-TOKEN)", async () => {
    seedPipeline(f.w, [jobSpec('build', 0)])
    await finish(f.w, await takeJob(f.w), { files })
    seedPipeline(f.w, [jobSpec('use', 0)])
    const running = await takeJob(f.w)
    const env = { CI_API_V4_URL: f.server.api, CI_JOB_TOKEN: running.token, CI_PROJECT_ID: String(f.w.project.id), CI_COMMIT_REF_NAME: 'main' }
    const c = (await import('../cli.js')).cli()
    try {
      expect(await c.run(['job', 'artifacts', 'download', '--job', 'build', '--path', 'README.txt', '-o', '-'], { env })).toEqual(ok(files['README.txt']))
      expect(await c.run(['job', 'artifacts', 'download', '1', '-o', 'got'], { env }))
        .toEqual(ok('', `Extracted 2 files from the artifacts of job #1 in ${f.w.project.id} into got\n`))
      expect(readFileSync(join(c.configDir, 'got/dist/app.js'), 'utf8')).toBe(files['dist/app.js'])
    } finally {
      c.cleanup()
    }
  })

  it('refuses what cannot be meant', async () => {
    expect(await f.c.run(['job', 'artifacts', 'download', ...f.p])).toEqual({
      stdout: '', exitCode: 2, stderr: 'error: no job given\nhint: pass a job id or name, or --job NAME (with --ref)\n',
    })
    expect((await f.c.run(['job', 'artifacts', 'download', '1', '--zip', '--path', 'a', ...f.p])).stderr)
      .toBe('error: --path saves one file; --zip the whole archive: pass one of them\n')
    expect((await f.c.run(['job', 'artifacts', 'download', '1', '--job', 'build', ...f.p])).stderr).toBe('error: pass a job argument or --job NAME, not both\n')
  })
})
