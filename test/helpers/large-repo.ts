// A large repository and the read sequence of issue 24, shared by the memory test (a pack of tens of MB) and the
// large-repo benchmark (1 GB): random blobs (incompressible, so the pack is as large as they are), a README, a text
// file with two commits for blame, and one large blob read raw, as JSON and as a web page.
import { spawn, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

export interface LargeRepo { dir: string; packBytes: number; bigPath: string; bigBytes: number; readme: string }

const CHUNK = 8 * 1024 * 1024

/** Writes fast-import's stream without holding more than one random chunk: a 1 GB repository never sits in memory. */
async function fastImport(dir: string, write: (put: (s: string | Buffer) => Promise<void>) => Promise<void>) {
  const child = spawn('git', ['--git-dir', dir, '-c', 'fastimport.unpackLimit=1', '-c', 'core.compression=0', 'fast-import', '--quiet'], { stdio: ['pipe', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
  const exited = new Promise<void>((resolve, reject) => child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`fast-import: ${code} ${stderr}`)))))
  const put = (s: string | Buffer) => new Promise<void>((resolve) => { if (child.stdin.write(s)) resolve(); else child.stdin.once('drain', resolve) })
  await write(put)
  child.stdin.end()
  await exited
}

/**
 * A bare repository on `master`: README.md, lib/blame.txt (changed by a second commit), `big.bin` of `bigBytes` and
 * filler blobs of random bytes, `fillerBytes` in all.
 */
export async function generateLargeRepo(root: string, opts: { fillerBytes: number; bigBytes: number }): Promise<LargeRepo> {
  const dir = join(root, 'large.git')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'master', dir])
  const readme = '# large\n'
  const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `line ${i} ${i % 7 === 0 ? tag : 'same'}\n`).join('')
  await fastImport(dir, async (put) => {
    const file = async (path: string, data: string | Buffer) => {
      await put(`M 100644 inline ${path}\ndata ${Buffer.byteLength(data)}\n`)
      await put(data)
      await put('\n')
    }
    const commit = async (n: number, msg: string) => {
      await put(`commit refs/heads/master\nauthor Big <big@example.com> ${1_700_000_000 + n} +0000\ncommitter Big <big@example.com> ${1_700_000_000 + n} +0000\ndata ${msg.length}\n${msg}\n`)
    }
    await commit(0, 'import')
    await file('README.md', readme)
    await file('lib/blame.txt', lines(200, 'first'))
    await file('src/main.ts', 'export const main = () => 1\n')
    // More objects than git's receive.unpackLimit (100): the server keeps the push as one pack, as a real repository's,
    // rather than unpacking a handful of large blobs into loose objects.
    for (let i = 0; i < 120; i++) await file(`src/module-${i}.ts`, `export const value${i} = ${i}\n`)
    await file('big.bin', randomBytes(opts.bigBytes))
    for (let i = 0, left = opts.fillerBytes; left > 0; i++, left -= CHUNK) await file(`data/filler-${i}.bin`, randomBytes(Math.min(CHUNK, left)))
    await put('\n')
    await commit(1, 'change some lines')
    await file('lib/blame.txt', lines(200, 'second'))
    await put('\n')
  })
  const packs = join(dir, 'objects', 'pack')
  const packBytes = readdirSync(packs).filter((f) => f.endsWith('.pack')).reduce((n, f) => n + statSync(join(packs, f)).size, 0)
  return { dir, packBytes, bigPath: 'big.bin', bigBytes: opts.bigBytes, readme }
}

/** Reads a response to its end without keeping it; its byte count. */
async function drain(res: Response): Promise<number> {
  let n = 0
  const reader = res.body!.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) n += r.value.length
  return n
}

export interface ReadStep { name: string; path: string; api: boolean }

/** Issue 24's reads: a README, a tree, the commit list, a blame, the large blob raw, as JSON and as a page, a zip archive and the languages. */
export function readSteps(projectId: number, projectPath: string, repo: LargeRepo): ReadStep[] {
  const p = `/projects/${projectId}`
  const file = (path: string) => `${p}/repository/files/${encodeURIComponent(path)}`
  return [
    { name: 'README raw', path: `${file('README.md')}/raw?ref=master`, api: true },
    { name: 'tree', path: `${p}/repository/tree?ref=master`, api: true },
    { name: 'commit list', path: `${p}/repository/commits?ref_name=master`, api: true },
    { name: 'blame', path: `${file('lib/blame.txt')}/blame?ref=master`, api: true },
    { name: 'large blob raw', path: `${file(repo.bigPath)}/raw?ref=master`, api: true },
    { name: 'large blob JSON', path: `${file(repo.bigPath)}?ref=master`, api: true },
    { name: 'large blob page', path: `/${projectPath}/-/blob/master/${repo.bigPath}`, api: false },
    { name: 'zip archive', path: `${p}/repository/archive.zip?sha=master`, api: true },
    { name: 'languages', path: `${p}/languages`, api: true },
  ]
}

/** Runs every step once, each expected to answer 200; the bytes each answered. */
export async function runReadSteps(baseUrl: string, token: string, steps: ReadStep[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {}
  for (const s of steps) {
    const res = await fetch(`${baseUrl}${s.api ? '/api/v4' : ''}${s.path}`, { headers: { 'private-token': token } })
    if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${await res.text()}`)
    out[s.name] = await drain(res)
  }
  return out
}

/** A process's resident set in bytes, from /proc. */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}
