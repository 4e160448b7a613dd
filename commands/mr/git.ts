// The local git repository, through the git command line: the current branch, commits for --fill, and checkout's fetches.
import { failure } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'

export interface GitResult { exitCode: number; stdout: string; stderr: string }

/** Runs git in the CLI's working directory; output is captured, never shown, unless `inherit` is set (fetch progress). */
export async function git(io: IO, args: string[], options: { env?: Record<string, string>; inherit?: boolean } = {}): Promise<GitResult> {
  const { execa } = await import('execa')
  const result = await execa('git', args, {
    cwd: io.cwd,
    env: { ...io.env, GIT_TERMINAL_PROMPT: '0', ...options.env },
    extendEnv: false,
    stdin: 'ignore',
    stderr: options.inherit ? 'inherit' : 'pipe',
    reject: false,
    stripFinalNewline: false,
  })
  if ((result as { code?: string }).code === 'ENOENT') throw failure('git is not installed or not on the PATH', 'install git, then run the command again')
  return { exitCode: result.exitCode ?? 1, stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? '') }
}

/** Fails with git's own message, which says what went wrong better than we could. */
export async function gitOrFail(io: IO, args: string[], options: { env?: Record<string, string>; inherit?: boolean } = {}): Promise<string> {
  const result = await git(io, args, options)
  if (result.exitCode !== 0) throw failure(`git ${args[0]} failed: ${result.stderr.trim() || `exit code ${result.exitCode}`}`)
  return result.stdout
}

/** Undefined outside a repository and on a detached HEAD. */
export async function currentBranch(io: IO): Promise<string | undefined> {
  const result = await git(io, ['symbolic-ref', '--quiet', '--short', 'HEAD']).catch(() => undefined)
  return result?.exitCode === 0 ? result.stdout.trim() || undefined : undefined
}

export interface LocalCommit { subject: string; body: string }

/** The commits on `source` that `target` lacks, oldest first; the target is tried as `origin/<target>`, then as a local branch. */
export async function commitsBetween(io: IO, target: string, source: string): Promise<LocalCommit[] | undefined> {
  for (const base of [`origin/${target}`, target]) {
    const found = await git(io, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`])
    if (found.exitCode !== 0) continue
    const log = await git(io, ['log', '--reverse', '--format=%s%x00%b%x1e', `${base}..${source}`, '--'])
    if (log.exitCode !== 0) return undefined
    return log.stdout.split('\x1e').map((entry) => entry.replace(/^\n/, '')).filter(Boolean).map((entry) => {
      const [subject, body = ''] = entry.split('\x00')
      return { subject, body: body.trim() }
    })
  }
  return undefined
}

/**
 * `HEAD`, `HEAD~2`, `main^` or a short SHA as the local clone reads them, as a full SHA; unchanged outside a clone or when
 * git does not know it (the server may: a branch only it has). The server's HEAD is its default branch, not this checkout.
 */
export async function localRevision(io: IO, revision: string): Promise<string> {
  const local = /^(HEAD|@)([~^]\d*)*$/.test(revision) || /^[0-9a-f]{4,39}$/i.test(revision) || /[~^]\d*$/.test(revision)
  if (!local) return revision
  const result = await git(io, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`]).catch(() => undefined)
  return result?.exitCode === 0 ? result.stdout.trim() : revision
}

/** The commit a local branch points at; undefined when there is no such local branch (or no repository). */
export async function localBranchHead(io: IO, branch: string): Promise<string | undefined> {
  const result = await git(io, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).catch(() => undefined)
  return result?.exitCode === 0 ? result.stdout.trim() : undefined
}

/** How many commits `head` has that `base` lacks, or undefined when `base` is not an ancestor of `head` (or unknown here). */
export async function commitsAhead(io: IO, base: string, head: string): Promise<number | undefined> {
  if ((await git(io, ['merge-base', '--is-ancestor', base, head])).exitCode !== 0) return undefined
  const count = await git(io, ['rev-list', '--count', `${base}..${head}`])
  return count.exitCode === 0 ? Number(count.stdout.trim()) : undefined
}

/** The remote a branch pushes to: its configured remote, else origin. */
export async function pushRemote(io: IO, branch: string): Promise<string> {
  const configured = await git(io, ['config', '--get', `branch.${branch}.remote`])
  return configured.exitCode === 0 && configured.stdout.trim() ? configured.stdout.trim() : 'origin'
}
