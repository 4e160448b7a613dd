// The process edge of the CLI: streams, TTY facts, environment, working directory, signals and colors.
import { isatty } from 'node:tty'

export interface Writer {
  /** Bytes for raw output such as `collab project file get`; text everywhere else. */
  write(text: string | Uint8Array): void
}

export type Env = Readonly<Record<string, string | undefined>>

/** The few styles the CLI uses; chalk provides them on a colour terminal. */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  green(text: string): string
  red(text: string): string
  yellow(text: string): string
  blue(text: string): string
  magenta(text: string): string
}

const same = (text: string) => text
export const plainStyle: Style = { bold: same, dim: same, green: same, red: same, yellow: same, blue: same, magenta: same }

export interface IO {
  stdout: Writer
  stderr: Writer
  stdoutIsTTY: boolean
  /** Prompts only when a person sits at both ends. */
  canPrompt: boolean
  /** Terminal width for help text; undefined when piped. */
  columns: number | undefined
  colorLevel: 0 | 1 | 2 | 3
  /** Plain until withColors() loads chalk, which only a colour terminal pays for. */
  color: Style
  env: Env
  cwd: string
  readStdin(): Promise<string>
  /** The wall clock for relative times ("3 days ago"); without it times print as ISO 8601. */
  now?(): number
  /** Calls `handler` on every SIGINT/SIGTERM until the returned function is called. */
  onSignal(handler: (signal: NodeJS.Signals) => void): () => void
  /** The command line that runs this collab again (node and its script): `collab serve` starts `collab runner` with it. */
  self?: readonly string[]
}

/** NO_COLOR (no-color.org) wins, then FORCE_COLOR, then whether stdout is a colour terminal. */
export function colorLevel(env: Env, isTTY: boolean): 0 | 1 | 2 | 3 {
  if (env.NO_COLOR) return 0
  const force = env.FORCE_COLOR
  if (force !== undefined) {
    if (force === '0' || force === 'false') return 0
    return force === '2' ? 2 : force === '3' ? 3 : 1
  }
  if (!isTTY || env.TERM === 'dumb') return 0
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3
  return env.TERM?.includes('256') ? 2 : 1
}

export function systemIO(): IO {
  // `collab project list | head -1` closes the pipe early: stop quietly, as other tools do.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err
    process.exit(0)
  })
  const stdoutIsTTY = process.stdout.isTTY === true
  // isatty(0), not process.stdin.isTTY: touching process.stdin builds the stream, about 5 ms of every start.
  const stdinIsTTY = isatty(0)
  return {
    stdout: { write: (text) => void process.stdout.write(text) },
    stderr: { write: (text) => void process.stderr.write(text) },
    stdoutIsTTY,
    canPrompt: stdinIsTTY && stdoutIsTTY,
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
    colorLevel: colorLevel(process.env, stdoutIsTTY),
    color: plainStyle,
    env: process.env,
    cwd: process.cwd(),
    now: Date.now,
    self: [process.execPath, process.argv[1]],
    async readStdin() {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
    onSignal(handler) {
      process.on('SIGINT', handler)
      process.on('SIGTERM', handler)
      return () => {
        process.off('SIGINT', handler)
        process.off('SIGTERM', handler)
      }
    },
  }
}

export async function withColors(io: IO): Promise<IO> {
  if (io.colorLevel === 0) return io
  const { Chalk } = await import('chalk')
  return { ...io, color: new Chalk({ level: io.colorLevel }) }
}
