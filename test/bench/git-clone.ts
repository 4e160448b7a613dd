// Clone benchmark: `git clone` over collab's smart HTTP next to `git clone --no-local` of the same bare directory
// (a real pack transfer without HTTP), median of 5 each, and the ratio (target: within 1.3x).
import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { median, row, tempDir } from './lib.js'

const RUNS = 5

// The developer's own git configuration (credential helpers, url rewrites) must not change what is measured.
function gitEnv(home: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return { ...env, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' }
}

function cloneOnce(source: string, target: string, env: NodeJS.ProcessEnv, extra: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const p = spawn('git', ['clone', '-q', ...extra, source, target], { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    p.stderr.on('data', (b) => (err += b))
    p.once('error', reject)
    p.once('exit', (code) => {
      if (code === 0) resolve(Number(process.hrtime.bigint() - start) / 1e6)
      else reject(new Error(`git clone ${source} exited ${code}: ${err}`))
    })
  })
}

async function timeClones(source: string, extra: string[], root: string, label: string) {
  const env = gitEnv(root)
  const times: number[] = []
  // One warm-up run so both sides read the source pack from the page cache.
  for (let i = 0; i <= RUNS; i++) {
    const target = join(root, `${label}-${i}`)
    const ms = await cloneOnce(source, target, env, extra)
    rmSync(target, { recursive: true, force: true })
    if (i > 0) times.push(ms)
  }
  return median(times)
}

/** Times cloning `url` (credentials in it) against cloning `bareDir` directly; prints both and the ratio. */
export async function cloneBench(url: string, bareDir: string): Promise<{ httpMs: number; localMs: number; ratio: number }> {
  const root = tempDir('clone')
  try {
    const httpMs = await timeClones(url, [], root, 'http')
    const localMs = await timeClones(bareDir, ['--no-local'], root, 'local')
    const ratio = httpMs / localMs
    console.log(row(['git clone over HTTP vs --no-local (ms)', httpMs.toFixed(1), localMs.toFixed(1), ratio.toFixed(2)]))
    return { httpMs, localMs, ratio }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
