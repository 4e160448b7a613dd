// CLI start-up: `collab issue list --json` next to a bare node GET of the same URL, `collab --version` next to `node -e ""`,
// and what --jq (jq-wasm, loaded then) and --template add to `collab issue list --json`.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { BIN, median, ROOT, row, startCollab, tempDir, TOKEN } from './lib.js'

const ISSUES = 20
const RUNS = 30

/** Wall time of one run of `file` (node by default), failing unless it exits 0. */
export function runOnce(args: string[], env: Record<string, string>, file = process.execPath): Promise<number> {
  const start = process.hrtime.bigint()
  return new Promise((resolve, reject) => {
    const p = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    p.stdout.on('data', (b) => (out += b))
    p.stderr.on('data', (b) => (out += b))
    p.once('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`${args.join(' ')} exited ${code}: ${out}`))))
  })
}

/** Median wall times of two commands, run alternately so a busy moment of the machine weighs on both alike. */
async function sideBySide(a: string[], b: string[], env: Record<string, string>) {
  const ta: number[] = []
  const tb: number[] = []
  for (let i = 0; i < 3; i++) {
    await runOnce(a, env)
    await runOnce(b, env)
  }
  for (let i = 0; i < RUNS; i++) {
    ta.push(await runOnce(a, env))
    tb.push(await runOnce(b, env))
  }
  return { a: median(ta), b: median(tb) }
}

async function seed(api: string) {
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const res = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'cli-bench' }) })
  const project = (await res.json()) as { id: number; path_with_namespace: string }
  for (let i = 0; i < ISSUES; i++) {
    const res = await fetch(`${api}/projects/${project.id}/issues`, { method: 'POST', headers, body: JSON.stringify({ title: `Issue ${i}`, labels: 'bench' }) })
    if (res.status !== 201) throw new Error(`seeding issue ${i}: ${res.status} ${await res.text()}`)
  }
  return project
}

export async function cliBench() {
  const configDir = tempDir('config')
  const collab = await startCollab(tempDir('data'), configDir)
  try {
    const project = await seed(`${collab.url}/api/v4`)
    const env = { COLLAB_CONFIG_DIR: configDir, COLLAB_HOST: collab.url, COLLAB_TOKEN: TOKEN, COLLAB_PROJECT: project.path_with_namespace, NO_COLOR: '1' }
    const url = `${collab.url}/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}/issues`
    const list = await sideBySide([BIN, 'issue', 'list', '--json'], [join(ROOT, 'test/bench/bare-get.mjs'), url, TOKEN], env)
    const version = await sideBySide([BIN, '--version'], ['-e', ''], env)
    const json = [BIN, 'issue', 'list', '--json']
    const jq = await sideBySide([BIN, 'issue', 'list', '--jq', '.[].title'], json, env)
    const template = await sideBySide([BIN, 'issue', 'list', '--template', '{{range .}}{{.title}}{{"\\n"}}{{end}}'], json, env)
    console.log(row([`command (median of ${RUNS}, alternating)`, 'collab ms', 'baseline ms', 'ratio (target)']))
    console.log(row(['collab issue list --json vs bare node GET', list.a.toFixed(1), list.b.toFixed(1), `${(list.a / list.b).toFixed(2)} (<= 1.15)`]))
    console.log(row(['collab --version vs node -e ""', version.a.toFixed(1), version.b.toFixed(1), (version.a / version.b).toFixed(2)]))
    console.log(row(['collab issue list --jq .[].title vs --json', jq.a.toFixed(1), jq.b.toFixed(1), (jq.a / jq.b).toFixed(2)]))
    console.log(row(['collab issue list --template … vs --json', template.a.toFixed(1), template.b.toFixed(1), (template.a / template.b).toFixed(2)]))
  } finally {
    await collab.stop()
  }
}
