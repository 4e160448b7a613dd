// A real terminal for tests: util-linux `script` runs a command on a pseudo-terminal. Input is typed step by step, each
// step once the screen shows what it answers (a prompt, a banner), so a slow machine only makes a run slower.
import { execa } from 'execa'

export interface TerminalOptions {
  env: Record<string, string>
  cwd: string
  /** Stop waiting for the program after this long (it is killed, and the run fails with what the screen showed). */
  timeoutMs?: number
}

/**
 * Once the screen shows `when` (text without escape sequences, looked for after what the previous step waited for;
 * '' at once), types `keys`, or what `keys` answers (given the screen so far, it may act on it first, e.g. send a
 * request to a server whose banner just appeared).
 */
export type Step = [when: string | RegExp, keys: string | ((screen: string) => Promise<string>)]

export interface TerminalRun {
  /** Everything the terminal showed, escape sequences included, with \r\n as the terminal sends it. */
  screen: string
  exitCode: number
}

/** The screen as text: escape sequences and carriage returns dropped. */
export const plain = (screen: string) => screen.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '')

function find(text: string, when: string | RegExp, from: number): number {
  if (typeof when === 'string') {
    const at = text.indexOf(when, from)
    return at < 0 ? -1 : at + when.length
  }
  const re = new RegExp(when.source, when.flags.replace('g', '') + 'g')
  re.lastIndex = from
  const m = re.exec(text)
  return m ? m.index + m[0].length : -1
}

/**
 * Runs `command` (a shell command line) on a pseudo-terminal, types each step's keys once its text is on the screen,
 * and returns the screen and exit code when the program ends. stdin stays open: a program reading the terminal would
 * take its end for Ctrl-D.
 */
export async function runInTerminal(command: string, steps: Step[], options: TerminalOptions): Promise<TerminalRun> {
  const child = execa('script', ['-qefc', command, '/dev/null'], {
    env: options.env, extendEnv: false, cwd: options.cwd, reject: false, stdin: 'pipe', timeout: options.timeoutMs ?? 40_000,
  })
  let screen = ''
  let wake = () => {}
  let ended = false
  child.stdout?.on('data', (chunk: Buffer) => {
    screen += chunk.toString()
    wake()
  })
  const result = child.then((r) => {
    ended = true
    wake()
    return r
  })
  try {
    let from = 0
    for (const [when, keys] of steps) {
      for (;;) {
        const at = find(plain(screen), when, from)
        if (at >= 0) {
          from = at
          break
        }
        if (ended) throw new Error(`the terminal ended without showing ${String(when)}; it showed:\n${plain(screen)}`)
        await new Promise<void>((resolve) => (wake = resolve))
      }
      child.stdin?.write(typeof keys === 'string' ? keys : await keys(screen))
    }
  } catch (err) {
    child.kill()
    await result
    throw err
  }
  const { exitCode, timedOut } = await result
  child.stdin?.destroy()
  if (timedOut) throw new Error(`${command} did not end within ${options.timeoutMs ?? 40_000} ms; the terminal showed:\n${plain(screen)}`)
  return { screen, exitCode: exitCode ?? -1 }
}

/** The screen only, for interactive shells that are left by the last input. */
export const inTerminal = async (command: string, steps: Step[], options: TerminalOptions) =>
  (await runInTerminal(command, steps, options)).screen
