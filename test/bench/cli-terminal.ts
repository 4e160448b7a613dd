// What a person at a terminal waits for: one TAB of dynamic completion (cold: asking the server; cached: from the 60 s
// cache file) and `collab issue list` drawn on a real terminal (util-linux script), each next to the node floor
// (`node -e ""`, on the same kind of terminal for the list) measured in the same run.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { runOnce } from './cli.js'
import { BIN, median, row, startCollab, tempDir, TOKEN } from './lib.js'

const RUNS = 30
const ISSUES = 20

async function seed(api: string): Promise<string> {
  const headers = { 'private-token': TOKEN, 'content-type': 'application/json' }
  const res = await fetch(`${api}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'tab-bench' }) })
  const project = (await res.json()) as { id: number; path_with_namespace: string }
  for (let i = 0; i < ISSUES; i++) {
    const title = `Issue ${i} with a title long enough to be cut on an eighty-column terminal, as real titles often are`
    const made = await fetch(`${api}/projects/${project.id}/issues`, { method: 'POST', headers, body: JSON.stringify({ title, labels: 'bench' }) })
    if (made.status !== 201) throw new Error(`seeding issue ${i}: ${made.status}`)
  }
  return project.path_with_namespace
}

/** Median of RUNS runs of `a` and of `b`, alternating; `beforeA` runs untimed before each run of `a`. */
async function alternate(a: () => Promise<number>, b: () => Promise<number>, beforeA: () => void = () => {}) {
  const ta: number[] = []
  const tb: number[] = []
  for (let i = 0; i < 3; i++) {
    beforeA()
    await a()
    await b()
  }
  for (let i = 0; i < RUNS; i++) {
    beforeA()
    ta.push(await a())
    tb.push(await b())
  }
  return { a: median(ta), b: median(tb) }
}

export async function cliTerminalBench() {
  const configDir = tempDir('config')
  const collab = await startCollab(tempDir('data'), configDir)
  try {
    const project = await seed(`${collab.url}/api/v4`)
    const env = { COLLAB_CONFIG_DIR: configDir, COLLAB_HOST: collab.url, COLLAB_TOKEN: TOKEN, TERM: 'xterm' }
    const cache = join(configDir, 'completion-cache.json')
    const tab = () => runOnce([BIN, '__complete', 'issue', 'view', '-p', project, ''], env)
    const floor = () => runOnce(['-e', ''], env)
    const cold = await alternate(tab, floor, () => rmSync(cache, { force: true }))
    await tab()
    const cached = await alternate(tab, floor)
    const onTerminal = (command: string) => () => runOnce(['-qefc', `stty cols 80 rows 40; ${command}`, '/dev/null'], env, 'script')
    const list = await alternate(onTerminal(`${process.execPath} ${BIN} issue list -p ${project}`), onTerminal(`${process.execPath} -e ""`))
    console.log(row([`median of ${RUNS}, alternating`, 'collab ms', 'node floor ms', 'ratio (target)']))
    console.log(row([`TAB cold (${ISSUES} issues)`, cold.a.toFixed(1), cold.b.toFixed(1), `${(cold.a / cold.b).toFixed(2)} (collab <= 150 ms)`]))
    console.log(row(['TAB cached', cached.a.toFixed(1), cached.b.toFixed(1), `${(cached.a / cached.b).toFixed(2)} (collab <= 150 ms)`]))
    console.log(row(['issue list, 80-col tty', list.a.toFixed(1), list.b.toFixed(1), (list.a / list.b).toFixed(2)]))
  } finally {
    await collab.stop()
  }
}
