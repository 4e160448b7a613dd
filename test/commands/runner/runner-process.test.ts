// The real `collab runner` process against the real server over the runner protocol: registered with a glrt- token,
// it runs a pipeline's jobs in bubblewrap (artifacts passed between stages, a masked variable masked before it leaves),
// the jobs see nothing of the server's data, the runner's configuration or its environment, and a canceled job's whole
// process tree goes, a setsid child too.
import { readdirSync, readFileSync } from 'node:fs'
import { execa, type ResultPromise } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, waitForFinished, waitForPipeline } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { bwrapWorks } from '../../helpers/sandbox.js'
import { BIN, cli, type Cli } from '../cli.js'


const CI = `
stages: [build, test]
build:
  stage: build
  script:
    - echo "secret=$MY_SECRET"
    - echo built > out.txt
    - test -e "$DATA_DIR/secrets.json" && echo LEAK-DATA || echo data-hidden
    - test -e "$RUNNER_CONFIG" && echo LEAK-CONFIG || echo config-hidden
    - (cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'; env) | grep -q RUNNER_OWN_SECRET && echo LEAK-ENV || echo env-clean
    - echo "home=$HOME"
  artifacts:
    paths: [out.txt]
test:
  stage: test
  script:
    - echo "got $(cat out.txt)"
`

let server: TestServer
let root: Api
let c: Cli
let runner: ResultPromise | undefined
let runnerLog = ''

/** Live processes whose command line is exactly `args` (zombies waiting for a reaper do not count). */
function processesRunning(args: string[]): number {
  let n = 0
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0]
      if (state !== 'Z' && cmd.length === args.length && cmd.every((a, i) => a === args[i])) n++
    } catch {
      // Gone meanwhile.
    }
  }
  return n
}

async function until(what: string, check: () => boolean, ms = 20_000) {
  const end = performance.now() + ms
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}; runner said:\n${runnerLog}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe.skipIf(!bwrapWorks)('collab runner, a separate process with a sandbox', () => {
  beforeAll(async () => {
    server = await startCiServer()
    root = api(server, server.rootToken)
    c = cli()
    const created = expectStatus(await root.post('/user/runners', { runner_type: 'instance_type', description: 'sandboxed' }), 201).body
    const registered = await c.run(['runner', 'register', '--url', server.url, '--token', created.token, '--name', 'box'])
    expect(registered).toMatchObject({ exitCode: 0, stderr: expect.stringContaining('Registered runner box') })
    runner = execa('node', [BIN, 'runner', 'run', '--concurrency', '2'], {
      env: { PATH: process.env.PATH ?? '', HOME: c.configDir, COLLAB_CONFIG_DIR: c.configDir, RUNNER_OWN_SECRET: 'runner-env-value' },
      extendEnv: false, reject: false,
    })
    runner.stderr?.on('data', (chunk: Buffer) => { runnerLog += chunk.toString() })
    await until('the runner to start', () => runnerLog.includes('collab runner:'))
  }, 60_000)
  afterAll(async () => {
    runner?.kill('SIGTERM')
    await runner
    c?.cleanup()
    await server?.close()
  })

  it('runs the stages in the sandbox: artifacts between jobs, masked values masked, nothing of the host visible', async () => {
    const { project } = await ciProject(server, 'sandboxed', CI)
    for (const [key, value, masked] of [['MY_SECRET', 'hunter2-hunter2', true], ['DATA_DIR', server.dataDir, false], ['RUNNER_CONFIG', `${c.configDir}/runner.json`, false]] as const) {
      expectStatus(await root.post(`/projects/${project.id}/variables`, { key, value, masked }), 201)
    }
    const pipeline = expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'master' }), 201).body
    const done = await waitForFinished(server, pipeline.id, 60_000)
    const log = async (name: string) => expectStatus(await root.get(`/projects/${project.id}/jobs/${jobNamed(server, pipeline.id, name).id}/trace`), 200).text
    const build = await log('build')
    expect(done.status, build).toBe('success')
    expect(build).toContain('secret=[MASKED]')
    expect(build).not.toContain('hunter2-hunter2')
    for (const line of ['data-hidden', 'config-hidden', 'env-clean', 'home=/tmp/home']) expect(build).toContain(`\n${line}\n`)
    // The script's lines are echoed before they run: only an output line starting with LEAK- is a leak.
    expect(build).not.toMatch(/\nLEAK-/)
    expect(build).toContain('Using the bubblewrap sandbox')
    expect(await log('test')).toContain('\ngot built\n')
    const job = expectStatus(await root.get(`/projects/${project.id}/jobs/${jobNamed(server, pipeline.id, 'build').id}`), 200).body
    expect(job.runner).toMatchObject({ id: expect.any(Number) })
  }, 90_000)

  it('kills the whole process tree of a canceled job, a setsid child included', async () => {
    const marker = ['sleep', '3217']
    const { project } = await ciProject(server, 'cancel-tree', `hang:\n  script:\n    - setsid sleep 3217 &\n    - sleep 3217\n`)
    const [pipeline] = await projectPipelines(server, root, project.id)
    await until('both sleeps to run', () => processesRunning(marker) === 2)
    const job = jobNamed(server, pipeline.id, 'hang')
    expectStatus(await root.post(`/projects/${project.id}/jobs/${job.id}/cancel`), 201)
    await until('the sandbox to be gone', () => processesRunning(marker) === 0)
    await waitForPipeline(server, pipeline.id, (p) => p.status === 'canceled')
  }, 60_000)

  // Last: it ends the runner of this file.
  it('stops, exit code 1, when the server removes the runner', async () => {
    const [registered] = expectStatus(await root.get('/runners/all'), 200).body
    expectStatus(await root.del(`/runners/${registered.id}`), 204)
    const result = await runner!
    expect(result.exitCode).toBe(1)
    expect(runnerLog).toContain("error: box: the server refuses this runner's token (removed, or its token reset); it takes no more jobs")
    runner = undefined
  }, 30_000)
})
