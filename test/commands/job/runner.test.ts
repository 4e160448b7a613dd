// End to end with the built-in runner: real jobs in bash, followed by `job trace --follow` and `pipeline view --watch`
// with their exit codes, and a job that runs collab itself to fetch another pipeline's artifacts with only its environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, startCiServer, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'
import { BIN, ok, rootCli, type Cli } from '../cli.js'

const CI = `
build:
  stage: build
  rules:
    - if: $USE
      when: never
    - when: on_success
  script:
    - echo one
    - sleep 1
    - echo two > out.txt
    - echo two
  artifacts:
    paths: [out.txt]
broken:
  stage: build
  allow_failure: true
  rules:
    - if: $USE
      when: never
    - when: on_success
  script:
    - echo about to fail
    - exit 3
use:
  stage: build
  rules:
    - if: $USE
  script:
    - node "$COLLAB_BIN" job artifacts download --job build --path out.txt -o -
`

let server: TestServer
let c: Cli
let project: number

beforeAll(async () => {
  server = await startCiServer({ runner: true })
  const made = await ciProject(server, 'demo', CI)
  project = made.project.id
  expectStatus(await made.root.post(`/projects/${project}/variables`, { key: 'COLLAB_BIN', value: BIN }), 201)
  c = await rootCli(server)
}, 30_000)
afterAll(async () => {
  c.cleanup()
  await server.close()
})

describe('jobs run by the built-in runner', () => {
  it('follows a job to its end and exits 0, or 1 for the one that failed (allowed to, so the pipeline succeeds)', async () => {
    const p = ['-p', 'root/demo', '-r', 'master']
    const build = await c.run(['job', 'trace', 'build', '--follow', '--interval', '0.2', ...p])
    expect([build.exitCode, build.stderr]).toEqual([0, 'Job #1 (build) succeeded\n'])
    // Piped, the log comes without its ANSI codes.
    expect(build.stdout).toMatch(/\$ echo one\none\n[\s\S]*\$ echo two\ntwo\n/)
    expect(build.stdout).not.toContain('\x1b')
    const broken = await c.run(['job', 'trace', 'broken', '-f', '--interval', '0.2', ...p])
    expect([broken.exitCode, broken.stderr]).toEqual([1, 'Job #2 (broken) failed\n'])
    expect(broken.stdout).toContain('$ echo about to fail\nabout to fail\n')
    const watched = await c.run(['ci', 'view', '--watch', '--interval', '0.2', ...p])
    expect([watched.exitCode, watched.stdout.split('\n')[2]]).toEqual([0, 'status\tsuccess'])
  }, 30_000)

  it("lets a job download another pipeline's artifacts with collab and its job token", async () => {
    await waitForFinished(server, 1)
    const started = await c.run(['ci', 'run', '-p', 'root/demo', '-r', 'master', '--variable', 'USE=1', '--watch', '--interval', '0.2'])
    expect(started.stderr).toBe('Created pipeline #2 on master in root/demo\n')
    const log = await c.run(['job', 'trace', 'use', '--pipeline', '2', '-p', 'root/demo'])
    expect([started.exitCode, started.stdout.split('\n')[2]], log.stdout).toEqual([0, 'status\tsuccess'])
    expect(log.stdout).toContain('job artifacts download --job build --path out.txt -o -\ntwo\n')
    expect(await c.run(['job', 'artifacts', 'download', 'build', '--pipeline', '1', '--path', 'out.txt', '-o', '-', '-p', 'root/demo'])).toEqual(ok('two\n'))
  }, 30_000)
})
