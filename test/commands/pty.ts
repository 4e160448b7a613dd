// A real terminal for tests: util-linux `script` runs a command on a pseudo-terminal; input is typed piece by piece.
import { execa } from 'execa'

export interface TerminalOptions {
  env: Record<string, string>
  cwd: string
  /** Wait between typed pieces, so each lands after the program has drawn its answer to the previous one. */
  pauseMs?: number
  /** Stop waiting for the program after this long. */
  timeoutMs?: number
}

export interface TerminalRun {
  /** Everything the terminal showed, escape sequences included, with \r\n as the terminal sends it. */
  screen: string
  exitCode: number
}

/** Runs `command` (a shell command line) on a pseudo-terminal, types `inputs`, and returns the screen and exit code. */
export async function runInTerminal(command: string, inputs: string[], options: TerminalOptions): Promise<TerminalRun> {
  const child = execa('script', ['-qefc', command, '/dev/null'], {
    env: options.env, extendEnv: false, cwd: options.cwd, reject: false, stdin: 'pipe', timeout: options.timeoutMs ?? 20_000,
  })
  let screen = ''
  child.stdout?.on('data', (chunk: Buffer) => void (screen += chunk.toString()))
  for (const input of inputs) {
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 800))
    child.stdin?.write(input)
  }
  await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 800))
  child.stdin?.end()
  const result = await child
  return { screen, exitCode: result.exitCode ?? -1 }
}

/** The screen only, for interactive shells that are left by the last input. */
export const inTerminal = async (command: string, inputs: string[], options: TerminalOptions) =>
  (await runInTerminal(command, inputs, options)).screen
