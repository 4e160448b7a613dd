// What verb files use to declare flags and hand their options to run(): the runtime, shared flags and argument parsers.
import { InvalidArgumentError, Option, type Command, type OptionValues } from 'commander'
import { completeWith, type Candidate } from './completion.js'
import type { Deps } from './factory.js'
import type { IO } from './io.js'

/** A verb's work: options in, output through deps.io, an exit code out (0 when nothing is returned). */
export type Run<O> = (options: O, deps: Deps) => Promise<number | void>

export interface Runtime {
  io: IO
  /** Runs a parsed verb; tests replace it to capture the options that argv produced. */
  invoke<O>(command: Command, run: Run<O>, options: O): Promise<void>
}

/** `--host` and `--token` on every verb that talks to an API. */
export function withConnection(command: Command): Command {
  return command
    .option('--host <url>', 'the instance to talk to (default: COLLAB_HOST, GITLAB_HOST, git remote, config)')
    .option('--token <token>', 'access token (default: COLLAB_TOKEN, GITLAB_TOKEN, CI_JOB_TOKEN, config)')
}

export const withProject = (command: Command) =>
  command.option('-p, --project <project>', 'project id, path (group/project) or URL (default: COLLAB_PROJECT, git remote)')

export const withJson = (command: Command) => withJsonFilters(command.option('--json', "print the API's JSON response unchanged"))

/**
 * gh's `--jq` and `--template` beside `--json` (which they imply): the runtime captures the JSON the verb prints and
 * filters it (src/cli/json-filter.ts), so a verb needs no code of its own for them.
 */
export function withJsonFilters(command: Command): Command {
  return command
    .option('--jq <expression>', 'filter the JSON through a jq expression (strings print raw)')
    .option('--template <template>', 'format the JSON with a Go template: {{.title}}, {{range .}}…{{end}}, printf, tablerow')
    .hook('preAction', (self) => {
      const flags = self.opts()
      if ((flags.jq !== undefined || flags.template !== undefined) && self.options.some((o) => o.long === '--json')) self.setOptionValue('json', true)
    })
}

export const withPagination = (command: Command) =>
  command
    .option('--per-page <n>', 'items per page (1-100)', pageSize)
    .option('--all', 'fetch every page (joined into one JSON array with --json)')

export const choice = (flags: string, description: string, values: readonly string[]) =>
  new Option(flags, description).choices(values)

/** `--state`: the API's words, plus gh's `open` for `opened`. */
export function stateOption(flags: string, description: string, values: readonly string[]): Option {
  const option = new Option(flags, description).argParser((value: string) => {
    const state = value === 'open' && values.includes('opened') ? 'opened' : value
    if (!values.includes(state)) throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')}.`)
    return state
  })
  return completeWith(option, async () => values.map((value): Candidate => [value, '']))
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('expected a positive integer')
  return Number(value)
}

export function pageSize(value: string): number {
  const n = positiveInt(value)
  if (n > 100) throw new InvalidArgumentError('the maximum is 100')
  return n
}

/** Repeatable flags: `-f a=1 -f b=2`. */
export const collect = (value: string, previous: string[] = []) => [...previous, value]

export interface PageOptions {
  perPage?: number
  all: boolean
}

export const pageOptions = (flags: OptionValues): PageOptions => ({ perPage: flags.perPage, all: flags.all === true })

/** With --all, ask for full pages unless the user chose a size (glab's `--paginate` does the same). */
export const pageQuery = (page: PageOptions) => ({ per_page: page.perPage ?? (page.all ? 100 : undefined) })

/** What GitLab's `since`/`until` take: an ISO 8601 date or time. */
export function isoDate(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value.trim()) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('expected an ISO 8601 date or time such as 2024-01-02 or 2024-01-02T03:04:05Z')
  }
  return value.trim()
}
