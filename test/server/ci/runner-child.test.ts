// A CI test server runs jobs as `collab serve` does: in its runner child (`collab runner run`), so the process that
// serves (this test's) never spawns a job's shell itself, and the server's code has no executor to run one with.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, waitForPipeline } from '../../helpers/ci.js'
import { ancestors, processTable } from '../../helpers/processes.js'
import { bwrapWorks } from '../../helpers/sandbox.js'
import { until } from '../../helpers/wait.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ runner: true })
})
afterAll(() => server.close())

it("runs a job's script under the runner child, never as a child of the server's process", async () => {
  const { project, root } = await ciProject(server, 'tree', 'probe:\n  script:\n    - sleep 4233\n')
  const [pipeline] = await projectPipelines(server, root, project.id)
  await waitForPipeline(server, pipeline.id, () => jobNamed(server, pipeline.id, 'probe').status === 'running')
  const sleeping = () => [...processTable()].find(([, [, argv]]) => argv.join(' ') === 'sleep 4233')
  const [pid] = await until('the job\'s sleep in the process table', sleeping)
  expect(pid).toBeGreaterThan(0)
  const table = processTable()
  const runner = server.runnerPid()!
  const ancestry = ancestors(table, pid, process.pid)
  // Up from the job: its shell (in bubblewrap where it works), then the runner, whose parent is this process.
  expect(ancestry.at(-1)).toBe(runner)
  expect(table.get(runner)![0]).toBe(process.pid)
  expect(table.get(runner)![1].join(' ')).toMatch(new RegExp(` runner run --url ${server.url} --executor ${bwrapWorks ? 'sandbox' : 'shell'} `))
  expect(ancestry.some((p) => table.get(p)![1][0] === 'bwrap')).toBe(bwrapWorks)
  const ownChildren = [...table].filter(([, [ppid]]) => ppid === process.pid).map(([p, [, argv]]) => (p === runner ? 'runner' : argv.join(' ')))
  // Besides the runner: the server's git processes, and the browser tests' Chromium where an earlier file of this
  // worker opened it (shared by the worker's files until the worker ends; playwright drives it over a pipe).
  const browser = (a: string) => a.includes(' --remote-debugging-pipe')
  expect(ownChildren.filter((a) => a !== 'runner' && !/^git /.test(a) && !browser(a))).toEqual([])
  expectStatus(await root.post(`/projects/${project.id}/jobs/${jobNamed(server, pipeline.id, 'probe').id}/cancel`), 201)
})

it('has no server module import the runner (src/runner): job code runs only in a runner process', () => {
  const server = resolve(import.meta.dirname, '../../../src/server')
  const runner = resolve(server, '../runner')
  const imports = (file: string) => [...readFileSync(join(server, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)]
    .map((m) => resolve(dirname(join(server, file)), m[1]))
  const importing = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    .filter((f) => imports(f).some((to) => to.startsWith(`${runner}/`)))
  expect(importing).toEqual([])
})
