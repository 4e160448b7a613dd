// collab __complete <words…>: the candidates for the last word, read from the command tree (the shell scripts ask this).
import type { Argument, Command, Option } from 'commander'
import type { IO } from '../src/cli/io.js'
import { ROUTES } from '../src/contract/routes.js'

export type Candidate = [value: string, description: string]

/** Values asked of the server (open merge requests, branches); the flags typed so far name the host and project. */
export type ValueSource = (context: { io: IO; flags: Record<string, string> }) => Promise<Candidate[]>

const sources = new WeakMap<Argument | Option, ValueSource>()

/** Completes an argument or an option's value with what `source` answers; a failure (offline, no token) offers nothing. */
export function completeWith<T extends Argument | Option>(target: T, source: ValueSource): T {
  sources.set(target, source)
  return target
}

async function fromSource(target: Argument | Option | undefined, io: IO, flags: Record<string, string>): Promise<Candidate[] | undefined> {
  const source = target && sources.get(target)
  return source ? source({ io, flags }).catch(() => []) : undefined
}

function findOption(command: Command, flag: string): Option | undefined {
  return command.options.find((o) => o.long === flag || o.short === flag)
}

/** `collab api` completes the contract's paths (`projects/:id/issues`), each with the methods declared on it. */
function apiPaths(): Candidate[] {
  const methods = new Map<string, string[]>()
  for (const { method, path } of Object.values(ROUTES)) methods.set(path.slice(1), [...(methods.get(path.slice(1)) ?? []), method])
  return [...methods].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, verbs]) => [path, verbs.join(' ')])
}

/** Walks the typed words through the tree; loads a group when its name is typed. */
export async function complete(program: Command, words: string[], load: (name: string) => Promise<Command | undefined>, io: IO): Promise<void> {
  const current = words.length > 0 ? words[words.length - 1] : ''
  let command = program
  let pending: Option | undefined
  let positionals = 0
  let optionsEnded = false
  const flags: Record<string, string> = {}
  for (const word of words.slice(0, -1)) {
    if (pending) {
      flags[pending.attributeName()] = word
      pending = undefined
    } else if (word === '--') {
      optionsEnded = true
    } else if (word.startsWith('-') && word.length > 1 && !optionsEnded) {
      const [flag, inline] = word.split(/=(.*)/s)
      const option = findOption(command, flag)
      if (option && (option.required || option.optional) && inline === undefined) pending = option
      else if (option && inline !== undefined) flags[option.attributeName()] = inline
    } else {
      const sub = positionals === 0 ? command.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined
      if (sub) {
        command = (command === program ? await load(sub.name()) : undefined) ?? sub
      } else {
        positionals += 1
      }
    }
  }

  const help = command.createHelp()
  let candidates: Candidate[]
  if (pending) {
    candidates = (await fromSource(pending, io, flags)) ?? (pending.argChoices ?? []).map((value) => [value, ''])
  } else if (current.startsWith('-') && !optionsEnded) {
    candidates = help.visibleOptions(command).flatMap((o) =>
      [o.long, o.short].filter((flag): flag is string => !!flag).map((flag): Candidate => [flag, o.description]))
  } else if (command.commands.length > 0) {
    candidates = help.visibleCommands(command).map((c) => [c.name(), c.summary() || c.description()])
  } else if (command.parent === program && command.name() === 'api' && positionals === 0) {
    candidates = apiPaths()
  } else {
    const argument = command.registeredArguments[Math.min(positionals, command.registeredArguments.length - 1)]
    candidates = (await fromSource(argument, io, flags)) ?? (argument?.argChoices ?? []).map((value) => [value, ''])
  }
  for (const [value, description] of candidates) {
    if (value.startsWith(current)) io.stdout.write(`${value}\t${description.replace(/\s+/g, ' ')}\n`)
  }
}
