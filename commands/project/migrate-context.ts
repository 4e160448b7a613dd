// What every step of `collab project migrate` shares: both ends, the journal, who may write as whom, the tally.
import type { Writer } from '../../src/cli/io.js'
import type { Route } from '../../src/client/paths.js'
import { ROUTES, type EndpointName } from '../../src/contract/routes.js'
import type { Journal } from './migrate-state.js'
import type { People } from './migrate-people.js'
import type { Side } from './migrate-side.js'

export interface ProjectFacts {
  id: number
  path_with_namespace: string
  web_url: string
  http_url_to_repo: string
  default_branch: string | null
  description: string | null
  visibility?: string
  name: string
  path: string
  issues_enabled?: boolean
  merge_requests_enabled?: boolean
  wiki_enabled?: boolean
  snippets_enabled?: boolean
}

export interface Tally {
  /** Items created on the target by this run, by kind. */
  copied: Record<string, number>
  /** Items found already copied (journal or target), by kind. */
  already: Record<string, number>
  /** What could not be copied, one sentence each. */
  problems: string[]
}

export interface Migration {
  source: Side
  target: Side
  from: ProjectFacts
  to: ProjectFacts
  journal: Journal
  people: People
  tally: Tally
  progress: Progress
  /** Source milestone id -> target milestone id. */
  milestones: Map<number, number>
}

export const count = (tally: Tally, kind: 'copied' | 'already', what: string, n = 1) => {
  tally[kind][what] = (tally[kind][what] ?? 0) + n
}

/** A route by endpoint name with its path parameters filled, for steps that pick the endpoint by the kind of item. */
export function at(name: EndpointName, params: Record<string, string | number>): Route {
  const { method, path } = ROUTES[name]
  return { method, path: path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key]))) }
}

/** One line of progress on stderr: rewritten in place on a terminal, a line per step when piped. */
export interface Progress {
  /** A step without a count (git's clone and push): its name until it ends. */
  begin(label: string): void
  step(label: string, done: number, total: number): void
  end(label: string, summary: string): void
}

export function progress(stderr: Writer, terminal: boolean, quiet: boolean): Progress {
  let last = 0
  return {
    begin(label) {
      if (!quiet && terminal) stderr.write(`\r\x1b[2K${label}…`)
    },
    step(label, done, total) {
      if (quiet || !terminal) return
      // At most every 1% (and the last): a thousand issues write a hundred lines, not a thousand.
      const pct = Math.floor((done * 100) / Math.max(total, 1))
      if (pct === last && done !== total) return
      last = pct
      stderr.write(`\r\x1b[2K${label} ${done}/${total}`)
    },
    end(label, summary) {
      last = 0
      if (quiet) return
      stderr.write(`${terminal ? '\r\x1b[2K' : ''}${label}: ${summary}\n`)
    },
  }
}

/**
 * Each item in turn, with progress: skipped when an earlier run finished it, created when the journal has no copy
 * yet (`create` records and counts it, or answers undefined when it cannot be copied), then finished (its notes,
 * state …) and marked done.
 */
export async function eachItem<T>(
  m: Migration, kind: 'issue' | 'merge_request' | 'snippet', label: string, items: T[], key: (item: T) => number,
  create: (item: T) => Promise<number | undefined>, finish: (item: T, to: number) => Promise<void>,
): Promise<void> {
  for (const [i, item] of items.entries()) {
    m.progress.step(label, i + 1, items.length)
    const from = key(item)
    if (m.journal.has('done', `${kind}:${from}`)) {
      count(m.tally, 'already', label)
      continue
    }
    let to = m.journal.get(kind, from) as number | undefined
    if (to === undefined) to = await create(item)
    else count(m.tally, 'already', label)
    if (to === undefined) continue
    await finish(item, to)
    m.journal.record('done', `${kind}:${from}`, to)
  }
  m.progress.end(label, `${items.length} on the source, ${m.tally.copied[label] ?? 0} copied, ${m.tally.already[label] ?? 0} copied before`)
}
