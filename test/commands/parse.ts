// `main(argv)` with a recording runtime: the options a command line hands to run(), or the usage error it stops at.
import type { Command } from 'commander'
import { expect } from 'vitest'
import { main } from '../../commands/index.js'
import { plainStyle, type IO } from '../../src/cli/io.js'

export interface Parsed {
  stdout: string
  stderr: string
  exitCode: number
  invoked: { command: string; options: unknown }[]
}

const commandPath = (command: Command): string =>
  command.parent ? [commandPath(command.parent), command.name()].filter(Boolean).join(' ') : ''

export async function parse(argv: string[], env: Record<string, string> = {}): Promise<Parsed> {
  const out: Parsed = { stdout: '', stderr: '', exitCode: -1, invoked: [] }
  const io: IO = {
    stdout: { write: (text) => void (out.stdout += text) },
    stderr: { write: (text) => void (out.stderr += text) },
    stdoutIsTTY: false,
    canPrompt: false,
    columns: undefined,
    colorLevel: 0,
    color: plainStyle,
    env,
    cwd: '/',
    readStdin: async () => '',
    onSignal: () => () => {},
  }
  out.exitCode = await main(argv, {
    io,
    invoke: async (command, _run, options) => {
      out.invoked.push({ command: commandPath(command), options })
    },
  })
  return out
}

/** The one verb argv ran and its options; fails the test on any output or a non-zero exit. */
export async function optionsOf(argv: string[], env?: Record<string, string>) {
  const parsed = await parse(argv, env)
  expect(parsed.stderr).toBe('')
  expect(parsed.exitCode).toBe(0)
  expect(parsed.invoked).toHaveLength(1)
  return parsed.invoked[0]
}
