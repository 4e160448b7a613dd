// Searching a repository's content with the git command line: `git grep` over a commit's tree and `git log --grep`,
// stopped after a fixed number of results or seconds, so one query cannot hold the server.
import { spawn } from 'node:child_process'
import { gitChildEnv } from '../../core/child-env.js'
import { runGit } from './exec.js'

const ENV = gitChildEnv({ LC_ALL: 'C' })
const TIMEOUT_MS = 10_000
/** Lines longer than this are cut: a minified file's one line must not fill a result. */
const MAX_LINE = 1024

/** Searches running at once; the rest wait their turn, so a burst of queries takes two cores, not all of them. */
const MAX_RUNNING = 2
let running = 0
const waiting: (() => void)[] = []

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

export interface BlobMatch { path: string; startline: number; data: string }

/**
 * Chunks of the files of `commit` containing `query` (case-insensitive, literal), each a match with two lines of
 * context, in path order: GitLab's blob search results. At most `max` chunks are read.
 */
export const grepBlobs = (gitdir: string, commit: string, query: string, max: number) => inTurn(() => grep(gitdir, commit, query, max))

function grep(gitdir: string, commit: string, query: string, max: number): Promise<BlobMatch[]> {
  const args = ['--git-dir', gitdir, '-c', 'core.quotePath=false', 'grep', '--null', '-n', '-I', '-i', '-F', '-C', '2', '-e', query, commit, '--']
  const prefix = `${commit}:`
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { env: ENV, stdio: ['ignore', 'pipe', 'ignore'] })
    const out: BlobMatch[] = []
    let current: BlobMatch | null = null
    let rest = ''
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      if (current && out.length < max) out.push(current)
      child.kill('SIGKILL')
      resolve(out)
    }
    const timer = setTimeout(finish, TIMEOUT_MS)
    const line = (l: string) => {
      if (l === '--') { if (current) out.push(current); current = null; return }
      const first = l.indexOf('\0')
      const second = l.indexOf('\0', first + 1)
      if (first < 0 || second < 0) return
      const path = l.slice(0, first).startsWith(prefix) ? l.slice(prefix.length, first) : l.slice(0, first)
      const lineNo = Number(l.slice(first + 1, second))
      const text = l.slice(second + 1, second + 1 + MAX_LINE)
      if (current && current.path !== path) { out.push(current); current = null }
      if (out.length >= max) return finish()
      if (!current) current = { path, startline: lineNo, data: '' }
      current.data += `${text}\n`
    }
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n')
      rest = lines.pop() ?? ''
      for (const l of lines) { line(l); if (done) return }
    })
    child.on('error', (err) => { if (!done) { done = true; clearTimeout(timer); reject(err) } })
    child.on('close', () => { if (rest) line(rest); finish() })
  })
}

/** Ids of the commits reachable from `commit` whose message contains `query` (case-insensitive, literal), newest first, at most `max`. */
export async function grepCommitIds(gitdir: string, commit: string, query: string, max: number): Promise<string[]> {
  const out = await inTurn(() => runGit(gitdir, ['log', '--format=%H', '-i', '-F', `--grep=${query}`, `--max-count=${max}`, commit, '--'], { maxBytes: 41 * max + 1 }))
  return out.split('\n').filter(Boolean)
}
