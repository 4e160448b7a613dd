// Which arguments and option values complete from the server: a registry the command files fill and `collab __complete`
// reads. Registering costs nothing at start-up: a named source is loaded only when a TAB asks for it.
//
// A new command group adds its own values in one of two ways:
//   completeWith(argument, 'issues')              a named source from commands/complete-sources.ts (add a name there)
//   completeWith(option, async (context) => …)     its own function; `context.cached(kind, fetch)` gives it the same
//                                                  project resolution, 1 s timeout and 60 s on-disk cache
import type { Argument, Option } from 'commander'
import type { ApiClient } from '../client/http.js'
import type { IO } from './io.js'

export type Candidate = [value: string, description: string]

export interface CompletionContext {
  io: IO
  /** The flags typed so far (`project`, `host`, `token`, …), by attribute name. */
  flags: Record<string, string>
  /**
   * Candidates of one kind for the project the typed flags (or the git remote) name, read from the cache when fresh;
   * `perProject: false` for lists of the whole instance (projects).
   */
  cached(kind: string, fetch: (api: ApiClient, ref: string) => Promise<Candidate[]>, perProject?: boolean): Promise<Candidate[]>
}

/** Values asked of the server (open merge requests, branches); a failure (offline, no token) offers nothing. */
export type ValueSource = (context: CompletionContext) => Promise<Candidate[]>

/** The named sources of commands/complete-sources.ts. Job names and wiki slugs: add `jobs` / `wiki-pages` there. */
export type SourceName = 'projects' | 'issues' | 'merge-requests' | 'branches' | 'labels' | 'milestones' | 'users'

const sources = new WeakMap<Argument | Option, ValueSource | SourceName>()

export function completeWith<T extends Argument | Option>(target: T, source: ValueSource | SourceName): T {
  sources.set(target, source)
  return target
}

export const sourceOf = (target: Argument | Option): ValueSource | SourceName | undefined => sources.get(target)
