// The collab command tree: commands loaded only when named, exit codes and error reporting.
import type { Command } from 'commander'
import { VERSION } from '../src/core/version.js'
import type { Runtime } from '../src/cli/command.js'
import { describeError, EXIT, exitCodeFor, isPromptInterrupt } from '../src/cli/errors.js'
import { systemIO, withColors, type IO } from '../src/cli/io.js'
import { COMMANDS as ALL_COMMANDS } from './commands.generated.js'

interface CommandModule {
  /** Adds flags, arguments and the action (or, for a group, its verbs) to the command. */
  register(command: Command, rt: Runtime): void
}

/**
 * Every top-level command, in alphabetical order (help's and completion's). A command is declared by its module alone:
 * a directory commands/<name>/ whose index.ts (or a file commands/<name>.ts) exports `summary`, `register` and
 * optionally `aliases`; scripts/registries.mjs copies the summaries into commands.generated.ts. A module is imported
 * only when argv names its command, so `collab --version` parses none of them (start-up budget: 100 ms).
 */
export const COMMANDS: Record<string, { summary: string; load(): Promise<CommandModule> }> = ALL_COMMANDS

const EPILOGUE = `
Environment:
  COLLAB_HOST, COLLAB_TOKEN   the instance and token to use (also GITLAB_HOST, GITLAB_TOKEN;
                              in a CI job CI_API_V4_URL and CI_JOB_TOKEN)
  COLLAB_PROJECT              the project for project commands (else CI_PROJECT_ID or the git remote)
  COLLAB_CONFIG_DIR           the directory of config.json
  NO_COLOR                    turns colors off
  COLLAB_NO_KEYRING           keep tokens in config.json rather than the OS keyring

Exit codes:
  0  success
  1  failure: the server answered with an error or could not be reached
  2  usage: unknown command or flag, missing or invalid argument
  4  authentication needed: no token, or the token was rejected (401)
  130  interrupted (Ctrl-C)`

export async function buildProgram(rt: Runtime): Promise<Command> {
  const { io } = rt
  const { Command } = await import('commander')
  const program = new Command('collab')
    .description('A command-line client for GitLab-compatible servers, and a server of its own (collab serve)')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => io.columns ?? 100,
      getErrHelpWidth: () => 100,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText('after', EPILOGUE)
  for (const [name, { summary }] of Object.entries(COMMANDS)) program.command(name).description(summary)
  return program
}

const loaded = new WeakSet<Command>()

/** Registers a top-level command's flags and verbs the first time it is needed. */
export async function loadCommand(program: Command, name: string, rt: Runtime): Promise<Command | undefined> {
  const command = program.commands.find((c) => c.name() === name)
  if (command && Object.hasOwn(COMMANDS, name) && !loaded.has(command)) {
    loaded.add(command)
    ;(await COMMANDS[name].load()).register(command, rt)
  }
  return command
}

/** Every usage error ends with the help command of the command that failed. */
function addHints(command: Command, path: string): void {
  command.showHelpAfterError(`hint: see '${path} --help'`)
  for (const sub of command.commands) addHints(sub, `${path} ${sub.name()}`)
}

function isCommanderError(err: unknown): err is { exitCode: number } {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('commander.')
}

/**
 * `issue time spend 1 -30m`: commander would read `-30m` as an unknown flag. No flag starts with a digit, so in the
 * `time` verbs such a word is moved behind `--`, where it is an argument.
 */
function negativeDurationsLast(argv: string[]): string[] {
  if (!argv.includes('time') || argv.includes('--')) return argv
  const negative = argv.filter((arg) => /^-\d/.test(arg))
  return negative.length === 0 ? argv : [...argv.filter((arg) => !/^-\d/.test(arg)), '--', ...negative]
}

/** `main(argv, { io, invoke })` lets tests see the options a command line produces without running anything. */
export async function main(argv: string[], overrides: Partial<Runtime> = {}): Promise<number> {
  const io = overrides.io ?? systemIO()
  // Answered before commander loads: it is a fifth of the start-up budget of `collab --version` (100 ms).
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`)
    return EXIT.ok
  }
  let exitCode: number = EXIT.ok
  const rt: Runtime = {
    io,
    invoke:
      overrides.invoke ??
      (async (command, run, options) => {
        const [{ createDeps }, colored] = await Promise.all([import('../src/cli/factory.js'), withColors(io)])
        const flags = command.opts()
        const work = async (out: IO) => (await run(options, createDeps(out, flags))) ?? EXIT.ok
        exitCode = flags.jq === undefined && flags.template === undefined
          ? await work(colored)
          : await (await import('../src/cli/json-filter.js')).withJsonFilter(colored, flags, work)
      }),
  }
  const program = await buildProgram(rt)
  try {
    if (argv[0] === '__complete') {
      const { complete } = await import('./complete.js')
      await complete(program, argv.slice(1), (name) => loadCommand(program, name, rt), io)
      return EXIT.ok
    }
    // An unknown first word may be an alias (gh's): only then is config.json read before parsing.
    if (argv[0] && !argv[0].startsWith('-') && argv[0] !== 'help' && !Object.hasOwn(COMMANDS, argv[0])) {
      const aliased = await (await import('../src/cli/aliases.js')).applyAlias(argv, io)
      if (typeof aliased === 'number') return aliased
      argv = aliased
    }
    const words = argv.filter((arg) => !arg.startsWith('-'))
    const name = words[0] === 'help' ? words[1] : words[0]
    if (name) await loadCommand(program, name, rt)
    addHints(program, 'collab')
    argv = negativeDurationsLast(argv)
    // commander's help command takes one name: `collab help issue list` becomes `collab issue list --help`.
    await program.parseAsync(argv[0] === 'help' && words.length > 2 ? [...words.slice(1), '--help'] : argv, { from: 'user' })
    return exitCode
  } catch (err) {
    // commander has printed its own message; help and --version end with exit code 0.
    if (isCommanderError(err)) return err.exitCode === 0 ? EXIT.ok : EXIT.usage
    if (isPromptInterrupt(err)) return EXIT.interrupted
    io.stderr.write(describeError(err))
    return exitCodeFor(err)
  }
}
