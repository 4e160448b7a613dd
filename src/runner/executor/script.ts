// Job scripts as gitlab-runner's shell executor writes them (each command echoed, then run; the first failure
// ends the script with its exit code), run in a process group of their own so a timeout or cancel kills it whole.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { constants } from 'node:os'
import { delimiter, join } from 'node:path'
import type { Writable } from 'node:stream'
import { sandboxArgs, type SandboxSpec } from '../sandbox.js'
import { commandEcho } from './messages.js'

export type ShellKind = 'bash' | 'sh'

/** bash when the PATH has it (for `pipefail`), else sh. */
export function findShell(path: string): { kind: ShellKind; file: string } {
  for (const dir of path.split(delimiter)) {
    if (dir && existsSync(join(dir, 'bash'))) return { kind: 'bash', file: join(dir, 'bash') }
  }
  return { kind: 'sh', file: '/bin/sh' }
}

/** Single-quoted for sh: every byte kept as is. */
export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

export function scriptText(commands: string[], shell: ShellKind): string {
  const lines = [shell === 'bash' ? 'set -eo pipefail' : 'set -e', 'set +o noclobber', 'exec 2>&1']
  for (const command of commands) {
    lines.push(`printf '%s\\n' ${shellQuote(commandEcho(command))}`, command)
  }
  return lines.join('\n') + '\n'
}

export interface ScriptRun {
  shell: string
  scriptFile: string
  cwd: string
  env: Record<string, string>
  output: Writable
  timeoutMs: number
  /** After SIGTERM, how long the group has before SIGKILL. */
  killGraceMs: number
  /** Aborting kills the group (a cancel, or the runner stopping). */
  signal: AbortSignal
  /** Called with the process group id once the shell runs. */
  onStart?(pgid: number): void
  /** Run inside bubblewrap: killing it takes down the job's whole pid namespace, daemons that left the group included. */
  sandbox?: SandboxSpec
}

export interface ScriptResult {
  exitCode: number
  timedOut: boolean
  aborted: boolean
}

/** How long output may keep flowing after the shell exits (a daemon that left the group keeps the pipes open). */
const DRAIN_MS = 2000

export function runScript(run: ScriptRun): Promise<ScriptResult> {
  return new Promise((resolve) => {
    const [file, args] = run.sandbox ? ['bwrap', [...sandboxArgs(run.sandbox), run.shell, run.scriptFile]] : [run.shell, [run.scriptFile]]
    const child = spawn(file, args, { cwd: run.cwd, env: run.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    let reason: 'timeout' | 'abort' | null = null
    let graceTimer: NodeJS.Timeout | undefined
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal)
      } catch {
        // The group is already gone.
      }
    }
    const terminate = (why: 'timeout' | 'abort') => {
      if (reason) return
      reason = why
      killGroup('SIGTERM')
      graceTimer = setTimeout(() => killGroup('SIGKILL'), run.killGraceMs)
    }
    const onAbort = () => terminate('abort')
    const timer = setTimeout(() => terminate('timeout'), run.timeoutMs)
    run.signal.addEventListener('abort', onAbort)
    if (run.signal.aborted) onAbort()
    child.stdout.pipe(run.output, { end: false })
    child.stderr.pipe(run.output, { end: false })
    if (child.pid) run.onStart?.(child.pid)
    let exit: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null }
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      // Whatever the script left running in its group goes with it.
      killGroup('SIGKILL')
      setTimeout(() => { child.stdout.destroy(); child.stderr.destroy() }, DRAIN_MS).unref()
    })
    const finish = (exitCode: number) => {
      clearTimeout(timer)
      clearTimeout(graceTimer)
      run.signal.removeEventListener('abort', onAbort)
      child.stdout.unpipe(run.output)
      child.stderr.unpipe(run.output)
      resolve({ exitCode, timedOut: reason === 'timeout', aborted: reason === 'abort' })
    }
    child.on('error', () => finish(127))
    child.on('close', () => finish(exit.code ?? 128 + (exit.signal ? constants.signals[exit.signal] ?? 0 : 1)))
  })
}
