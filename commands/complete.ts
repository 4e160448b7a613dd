// collab __complete <words…>: the candidates for the last word, read from the command tree (the shell scripts ask this).
// Values from the server go through one cache on disk (60 s) with a 1 s timeout, so a TAB answers within ~150 ms once
// warm and offers nothing, silently, when the server is down.
import type { Argument, Command, Option } from 'commander'
import type { Candidate, CompletionContext, SourceName, ValueSource } from '../src/cli/completion.js'
import { sourceOf } from '../src/cli/completion.js'
import type { IO } from '../src/cli/io.js'

export { completeWith, type Candidate, type ValueSource } from '../src/cli/completion.js'

/** Long enough to TAB through a command line, short enough that a new issue shows up on the next one. */
const CACHE_MS = 60_000
const TIMEOUT_MS = 1_000

type CacheFile = Record<string, { at: number; items: Candidate[] }>

function context(io: IO, flags: Record<string, string>): CompletionContext {
  return {
    io,
    flags,
    async cached(kind, fetch, perProject = true) {
      const [{ createDeps }, { configDirFrom }, { promises: fs }, { join }] = await Promise.all([
        import('../src/cli/factory.js'), import('../src/cli/config.js'), import('node:fs'), import('node:path'),
      ])
      const deps = createDeps(io, { host: flags.host, token: flags.token }, undefined, { timeoutMs: TIMEOUT_MS })
      const target = perProject ? await deps.project(flags.project) : { api: await deps.api(), ref: '' }
      const file = join(await configDirFrom(io.env), 'completion-cache.json')
      const key = `${target.api.host} ${target.ref} ${kind}`
      const now = io.now?.()
      const cache: CacheFile = await fs.readFile(file, 'utf8').then((text) => JSON.parse(text) as CacheFile).catch(() => ({}))
      const hit = cache[key]
      if (now !== undefined && hit && now - hit.at < CACHE_MS && now >= hit.at) return hit.items
      const items = await fetch(target.api, target.ref)
      if (now === undefined) return items
      for (const [k, entry] of Object.entries(cache)) if (now - entry.at >= CACHE_MS) delete cache[k]
      cache[key] = { at: now, items }
      // Written whole and renamed: two shells completing at once never read half a file. 0600: it holds titles.
      const temp = `${file}.${Math.random().toString(36).slice(2)}.tmp`
      await fs.mkdir(join(file, '..'), { recursive: true, mode: 0o700 })
      await fs.writeFile(temp, JSON.stringify(cache), { mode: 0o600 })
      await fs.rename(temp, file)
      return items
    },
  }
}

/** Flags and arguments that mean the same thing in every command complete the same way, unless a command says otherwise. */
const BY_FLAG: Record<string, SourceName> = {
  '--project': 'projects', '--label': 'labels', '--milestone': 'milestones', '--assignee': 'users', '--author': 'users',
  '--reviewer': 'users', '--source-branch': 'branches', '--target-branch': 'branches', '--branch': 'branches', '--ref': 'branches',
}
const BY_ARGUMENT: Record<string, SourceName> = { project: 'projects', iid: 'issues', mr: 'merge-requests', branch: 'branches' }

function defaultSource(target: Argument | Option): SourceName | undefined {
  const name = 'long' in target ? target.long : target.name()
  return name ? (Object.hasOwn(BY_FLAG, name) ? BY_FLAG[name] : Object.hasOwn(BY_ARGUMENT, name) ? BY_ARGUMENT[name] : undefined) : undefined
}

async function fromSource(target: Argument | Option | undefined, io: IO, flags: Record<string, string>): Promise<Candidate[] | undefined> {
  const source = target && (sourceOf(target) ?? defaultSource(target))
  if (!source) return undefined
  const run: ValueSource = typeof source === 'function' ? source : await import('./complete-sources.js').then((m) => m.NAMED_SOURCES[source as SourceName])
  return run(context(io, flags)).catch(() => [])
}

function findOption(command: Command, flag: string): Option | undefined {
  return command.options.find((o) => o.long === flag || o.short === flag)
}

/** `collab api` completes the contract's paths (`projects/:id/issues`), each with the methods declared on it. */
async function apiPaths(): Promise<Candidate[]> {
  const { ROUTES } = await import('../src/contract/routes.js')
  const methods = new Map<string, string[]>()
  for (const { method, path } of Object.values(ROUTES)) methods.set(path.slice(1), [...(methods.get(path.slice(1)) ?? []), method])
  return [...methods].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, verbs]) => [path, verbs.join(' ')])
}

/** The values of an option: its source, else its choices. */
async function optionValues(option: Option, io: IO, flags: Record<string, string>): Promise<Candidate[]> {
  return (await fromSource(option, io, flags)) ?? (option.argChoices ?? []).map((value) => [value, ''])
}

/** Walks the typed words through the tree; loads a group when its name is typed. */
export async function complete(program: Command, words: string[], load: (name: string) => Promise<Command | undefined>, io: IO): Promise<void> {
  let current = words.length > 0 ? words[words.length - 1] : ''
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
  let prefix = ''
  const inline = /^(--?[^=]+)=(.*)$/s.exec(current)
  const inlineOption = inline && !optionsEnded ? findOption(command, inline[1]) : undefined
  if (pending) {
    candidates = await optionValues(pending, io, flags)
  } else if (inline && inlineOption && (inlineOption.required || inlineOption.optional)) {
    // `--state=op` as one word (zsh, fish): the values, each with the flag in front.
    prefix = `${inline[1]}=`
    current = inline[2]
    candidates = await optionValues(inlineOption, io, flags)
  } else if (current.startsWith('-') && !optionsEnded) {
    candidates = help.visibleOptions(command).flatMap((o) =>
      [o.long, o.short].filter((flag): flag is string => !!flag).map((flag): Candidate => [flag, o.description]))
  } else if (command.commands.length > 0) {
    candidates = help.visibleCommands(command).map((c) => [c.name(), c.summary() || c.description()])
  } else if (command.parent === program && command.name() === 'api' && positionals === 0) {
    candidates = await apiPaths()
  } else {
    const argument = command.registeredArguments[Math.min(positionals, command.registeredArguments.length - 1)]
    candidates = (await fromSource(argument, io, flags)) ?? (argument?.argChoices ?? []).map((value) => [value, ''])
  }
  for (const [value, description] of candidates) {
    if (value.startsWith(current)) io.stdout.write(`${prefix}${value}\t${description.replace(/\s+/g, ' ')}\n`)
  }
}
