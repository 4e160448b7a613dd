// Runs the git command line against a bare repository, for the work where it beats isomorphic-git (history walks, big diffs).
import { execFile, spawn } from 'node:child_process'
import { constants } from 'node:fs'
import { access } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { gitChildEnv } from '../../core/child-env.js'
import { CollabError } from '../../core/errors.js'
import { GitCommandError } from '../../core/git-error.js'

let available: Promise<boolean> | null = null

/**
 * Whether a git command line is on the PATH (the one git's children get); asked once per process. Looked up rather
 * than run: the first request of a server that reads a repository would otherwise wait for one more process.
 */
export function gitAvailable(): Promise<boolean> {
  available ??= executableOnPath('git', ENV.PATH ?? '')
  return available
}

async function executableOnPath(name: string, path: string): Promise<boolean> {
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue
    try {
      await access(join(dir, name), constants.X_OK)
      return true
    } catch {
      // not in this directory
    }
  }
  return false
}

/** Lets tests force the in-process engine. */
export function setGitAvailable(value: boolean | null) {
  available = value === null ? null : Promise.resolve(value)
}

export { GitCommandError }

const ENV = gitChildEnv({ LC_ALL: 'C' })

const DEFAULT_OUTPUT_LIMIT = 64 * 1024 * 1024
let outputLimit = DEFAULT_OUTPUT_LIMIT

/**
 * Lets tests lower the most bytes a git command may write before it is stopped (null restores the default): output
 * is held in memory whole, and one huge object or history (a 1 GB commit message) must not take the server's memory.
 */
export function setGitOutputLimit(bytes: number | null) {
  outputLimit = bytes ?? DEFAULT_OUTPUT_LIMIT
}

/** The most bytes a git command may write (for callers that run git themselves). */
export const gitOutputLimit = () => outputLimit

/** A git command stopped at the output limit: a 4xx the caller can show, or catch to answer with less. */
export class GitOutputTooLarge extends CollabError {
  constructor(readonly args: string[], readonly limit: number) {
    super('GIT_OUTPUT_TOO_LARGE', `422 Unprocessable Entity - the repository data asked for is larger than ${limit} bytes`, { status: 422 })
  }
}

const commandLine = (gitdir: string, args: string[]) => ['--git-dir', gitdir, '-c', 'core.quotePath=false', ...args]
/** A caller may lower the output limit for its command, never raise it. */
const limitOf = (maxBytes: number | undefined) => Math.min(maxBytes ?? outputLimit, outputLimit)

export function runGit(gitdir: string, args: string[], opts: { input?: string | Buffer; env?: Record<string, string>; maxBytes?: number } = {}): Promise<string> {
  const full = commandLine(gitdir, args)
  const limit = limitOf(opts.maxBytes)
  return new Promise((resolve, reject) => {
    const child = execFile('git', full, { env: { ...ENV, ...opts.env }, maxBuffer: limit, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = (err as NodeJS.ErrnoException | null)?.code
      // execFile kills the child as soon as its output passes maxBuffer, so no more than the limit is ever held.
      if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') reject(new GitOutputTooLarge(args, limit))
      else if (err) reject(new GitCommandError(args, code ?? null, stderr))
      else resolve(stdout)
    })
    if (opts.input !== undefined) child.stdin?.end(opts.input)
  })
}

/**
 * Runs git and hands its output to `onText` as it arrives (UTF-8, no character split across calls); resolves when git
 * exits cleanly. Past `maxBytes` of output git is stopped, after its first `maxBytes` bytes were handed on, and the
 * promise rejects with GitOutputTooLarge.
 */
export function streamGit(gitdir: string, args: string[], onText: (text: string) => void, opts: { maxBytes?: number } = {}): Promise<void> {
  const full = commandLine(gitdir, args)
  const limit = limitOf(opts.maxBytes)
  return new Promise((resolve, reject) => {
    const child = spawn('git', full, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    const decoder = new StringDecoder('utf8')
    let bytes = 0
    let stderr = ''
    let failure: unknown = null
    const stop = (err: unknown) => {
      failure ??= err
      child.kill()
    }
    child.stdout.on('data', (b: Buffer) => {
      if (failure !== null) return
      // Exactly the first `limit` bytes are handed on, whatever the chunks: what a reader makes of them does not
      // depend on how the pipe happened to split the output.
      const over = bytes + b.length > limit
      const part = over ? b.subarray(0, limit - bytes) : b
      bytes += part.length
      try {
        const text = decoder.write(part)
        if (text) onText(text)
      } catch (err) {
        return stop(err)
      }
      if (over) stop(new GitOutputTooLarge(args, limit))
    })
    child.stderr.on('data', (b: Buffer) => {
      if (stderr.length < 65_536) stderr += b.toString()
    })
    child.once('error', (err) => {
      failure ??= err
      reject(failure)
    })
    child.once('close', (code, signal) => {
      if (failure !== null) return reject(failure)
      if (code !== 0) return reject(new GitCommandError(args, code ?? signal, stderr))
      try {
        const rest = decoder.end()
        if (rest) onText(rest)
        resolve()
      } catch (err) {
        reject(err)
      }
    })
  })
}
