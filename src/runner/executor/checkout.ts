// A job's work tree, with the git command line: a fresh fetch of one commit over HTTP with the job token, and the
// files git does not track.
import { execFile, spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { gitChildEnv } from '../../core/child-env.js'
import { GitCommandError } from '../../core/git-error.js'

export interface CheckoutOptions {
  /** An http(s) URL; credentials in it are sent as a header instead, so they appear in no git message or config. */
  url: string
  dir: string
  ref: string
  refType: 'branch' | 'tag'
  /** What to fetch, as the coordinator said (gitlab-runner's refspecs); the branch or tag of `ref` when absent or empty. */
  refspecs?: string[]
  sha: string
  /** 0 fetches the whole history. */
  depth: number
  /** git's progress and messages, as they come. */
  onOutput(chunk: Buffer): void
  signal?: AbortSignal
}

/** Splits `http://user:pass@host/x.git` into the bare URL and an `Authorization: Basic` header value. */
export function credentialsFromUrl(url: string): { url: string; authorization: string | null } {
  const u = new URL(url)
  if (!u.username && !u.password) return { url, authorization: null }
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')
  u.username = ''
  u.password = ''
  return { url: u.toString(), authorization: `Basic ${basic}` }
}

/** git init + fetch of the refspecs at `depth` + detached checkout of `sha`, as gitlab-runner's fetch strategy does. */
export async function checkoutCommit(opts: CheckoutOptions): Promise<void> {
  const { url, authorization } = credentialsFromUrl(opts.url)
  // GIT_CONFIG_* keeps the header out of the process list and out of .git/config.
  const env: Record<string, string> = authorization
    ? { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: ${authorization}` }
    : {}
  await mkdir(opts.dir, { recursive: true })
  const run = (args: string[]) => streamGit(opts.dir, args, env, opts.onOutput, opts.signal)
  await run(['init', '-q'])
  await run(['remote', 'add', 'origin', url])
  const refspecs = opts.refspecs?.length ? opts.refspecs
    : [opts.refType === 'tag' ? `+refs/tags/${opts.ref}:refs/tags/${opts.ref}` : `+refs/heads/${opts.ref}:refs/remotes/origin/${opts.ref}`]
  const depth = opts.depth > 0 ? [`--depth=${opts.depth}`] : []
  await run(['fetch', '--no-tags', '--prune', ...depth, 'origin', ...refspecs])
  await run(['checkout', '-f', '-q', opts.sha])
}

function streamGit(cwd: string, args: string[], env: Record<string, string>, onOutput: (chunk: Buffer) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, env: gitChildEnv({ LC_ALL: 'C', ...env }), stdio: ['ignore', 'pipe', 'pipe'], signal })
    let stderr = ''
    child.stdout.on('data', onOutput)
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString()
      onOutput(chunk)
    })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new GitCommandError(args, code, stderr))))
  })
}

/** Files in the work tree that git does not track, ignored ones included (what `artifacts:untracked` collects). */
export function listUntrackedFiles(dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('git', ['-c', 'core.quotePath=false', 'ls-files', '--others', '-z'], { cwd: dir, env: gitChildEnv({ LC_ALL: 'C' }), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) reject(new GitCommandError(['ls-files'], (err as NodeJS.ErrnoException).code ?? null, stderr))
        else resolve(stdout.split('\0').filter((p) => p !== ''))
      })
  })
}
