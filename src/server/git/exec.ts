// Runs the git command line against a bare repository, for the work where it beats isomorphic-git (history walks, big diffs).
import { execFile } from 'node:child_process'
import { gitChildEnv } from '../../core/child-env.js'

let available: Promise<boolean> | null = null

/** Whether a git command line is on the PATH; asked once per process. */
export function gitAvailable(): Promise<boolean> {
  available ??= new Promise((resolve) => execFile('git', ['--version'], (err) => resolve(!err)))
  return available
}

/** Lets tests force the in-process engine. */
export function setGitAvailable(value: boolean | null) {
  available = value === null ? null : Promise.resolve(value)
}

export class GitCommandError extends Error {
  constructor(readonly args: string[], readonly code: number | string | null, readonly stderr: string) {
    super(`git ${args[0]} failed (${code}): ${stderr.trim()}`)
  }
}

const ENV = gitChildEnv({ LC_ALL: 'C' })

export function runGit(gitdir: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<string> {
  const full = ['--git-dir', gitdir, '-c', 'core.quotePath=false', ...args]
  return new Promise((resolve, reject) => {
    const child = execFile('git', full, { env: { ...ENV, ...opts.env }, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err) reject(new GitCommandError(args, (err as NodeJS.ErrnoException).code ?? null, stderr))
      else resolve(stdout)
    })
    if (opts.input !== undefined) child.stdin?.end(opts.input)
  })
}
