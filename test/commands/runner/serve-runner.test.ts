// `collab serve` runs CI through `collab runner` as its child process: a job's shell descends from the runner (and
// bubblewrap), never directly from the server, and the job sees nothing of the server's data directory.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { request } from '../../helpers/api.js'
import { ancestors, processTable } from '../../helpers/processes.js'
import { bwrapWorks } from '../../helpers/sandbox.js'
import { BIN, cli, type Cli } from '../cli.js'


const TOKEN = 'glpat-serve-runner-token-000000'
let c: Cli
let dataDir: string
let serve: ReturnType<typeof execa> | undefined
let url = ''
let stderr = ''

beforeAll(async () => {
  if (!bwrapWorks) return
  c = cli()
  dataDir = mkdtempSync(join(tmpdir(), 'collab-serve-runner-'))
  serve = execa('node', [BIN, 'serve', '--port', '0', '--data', dataDir, '--root-token', TOKEN], {
    env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: c.configDir, HOME: c.configDir, COLLAB_ROOT_PASSWORD: 'server-only-password' },
    extendEnv: false, reject: false,
  })
  await new Promise<void>((resolve, reject) => {
    serve!.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('press Ctrl-C to stop\n')) resolve()
    })
    serve!.on('exit', () => reject(new Error(`serve exited early:\n${stderr}`)))
  })
  url = /serving (http:\/\/\S+)\n/.exec(stderr)![1]
}, 60_000)
afterAll(async () => {
  serve?.kill('SIGTERM')
  await serve
  c?.cleanup()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

it.skipIf(!bwrapWorks)('runs a pushed job in its runner child, never as the server, and the job sees no data directory', async () => {
  const headers = { 'PRIVATE-TOKEN': TOKEN }
  const project = (await request({ url }, 'POST', '/api/v4/projects', { json: { name: 'tree' }, headers })).body
  await request({ url }, 'POST', `/api/v4/projects/${project.id}/variables`, { json: { key: 'DATA', value: dataDir }, headers })
  const ci = [
    'probe:', '  script:',
    '    - test -e "$DATA/collab.db" && echo DATA-VISIBLE || echo data-hidden',
    '    - env | grep -q server-only-password && echo ENV-VISIBLE || echo env-clean',
    '    - sleep 4231', '',
  ].join('\n')
  const commit = await request({ url }, 'POST', `/api/v4/projects/${project.id}/repository/commits`, {
    json: { branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }] }, headers,
  })
  expect(commit.status).toBe(201)
  const sleeping = () => [...processTable()].find(([, [, argv]]) => argv.join(' ') === 'sleep 4231')
  const end = performance.now() + 30_000
  while (!sleeping() && performance.now() < end) await new Promise((r) => setTimeout(r, 100))
  const [pid] = sleeping() ?? [0]
  expect(pid, stderr).toBeGreaterThan(0)
  const table = processTable()
  const ancestry = ancestors(table, pid, serve!.pid!).map((p) => table.get(p)![1].join(' '))
  // Up from the job: its shell, bubblewrap, then the runner process, whose parent is the server.
  expect(ancestry.some((a) => a.startsWith('bwrap '))).toBe(true)
  expect(ancestry.at(-1)).toMatch(/ runner run --url http:\/\/127\.0\.0\.1:\d+ --executor sandbox /)
  const server = table.get(serve!.pid!)!
  const serverChildren = [...table].filter(([, [ppid]]) => ppid === serve!.pid).map(([, [, argv]]) => argv.join(' '))
  expect(serverChildren.filter((a) => !/ runner run /.test(a) && !/^git /.test(a))).toEqual([])
  expect(server[1].join(' ')).toMatch(/ serve /)
  const jobs = (await request({ url }, 'GET', `/api/v4/projects/${project.id}/jobs`, { headers })).body
  const trace = async () => (await request({ url }, 'GET', `/api/v4/projects/${project.id}/jobs/${jobs[0].id}/trace`, { headers })).text
  while (!(await trace()).includes('\nenv-') && performance.now() < end) await new Promise((r) => setTimeout(r, 100))
  const log = await trace()
  expect(log).toContain('\ndata-hidden\n')
  expect(log).toContain('\nenv-clean\n')
  await request({ url }, 'POST', `/api/v4/projects/${project.id}/jobs/${jobs[0].id}/cancel`, { headers })
})
