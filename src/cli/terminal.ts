// Terminal facts every list and view shares: display widths and truncation, state colours, relative times, JSON colours.
//
// A new command group (job, pipeline, wiki, snippet) uses it through src/cli/output.ts:
//   printList(io, columns, page, { noun: 'jobs', where: ref })   a table cut to the terminal width, "Showing 20 of 53
//                                                               jobs" when more pages exist, "No jobs match" when none
//   { header: 'STATUS', value: (j) => j.status, style: (t) => stateStyle(io, t) }   the state coloured by its meaning
//   { header: 'CREATED', value: (j) => j.created_at, time: true }                    "3 days ago" on a terminal, ISO piped
//   { header: 'NAME', value: (j) => j.name, flex: true }                             the column that shrinks first
//   printRaw(io, response.text)                                  --json: pretty and coloured on a terminal, bytes piped
// and stateStyle / relativeTime directly in views (widths and truncation: ./text-width.ts).
import { relativeWords } from '../core/relative-time.js'
import type { IO } from './io.js'

/** The width tables fit: the terminal's, else COLUMNS, else 80 (a pseudo-terminal may report 0 columns). */
export function terminalWidth(io: IO): number {
  if (io.columns && io.columns > 0) return io.columns
  const fromEnv = Number(io.env.COLUMNS)
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80
}

const GOOD = new Set(['opened', 'open', 'active', 'success', 'passed', 'running', 'online'])
const BAD = new Set(['closed', 'failed', 'locked', 'blocked', 'banned'])
const WAITING = new Set(['pending', 'created', 'waiting_for_resource', 'preparing', 'scheduled', 'manual', 'draft'])
const DONE = new Set(['merged'])

/** A state word coloured by what it means: green going, red stopped, yellow waiting, magenta merged, dim skipped. */
export function stateStyle(io: IO, state: string): string {
  if (GOOD.has(state)) return io.color.green(state)
  if (BAD.has(state)) return io.color.red(state)
  if (WAITING.has(state)) return io.color.yellow(state)
  if (DONE.has(state)) return io.color.magenta(state)
  if (state === 'canceled' || state === 'skipped') return io.color.dim(state)
  return state
}

/** "3 days ago", "in 2 hours", "just now", relative to `now` (ms since the epoch); an unreadable time as it came. */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso)
  return Number.isNaN(then) ? iso : relativeWords(then, now)
}

/** A time as a person reads it on a terminal, and unchanged (ISO 8601) for scripts. */
export function timeText(io: IO, iso: string | null | undefined): string {
  if (!iso) return ''
  return io.stdoutIsTTY && io.now ? relativeTime(iso, io.now()) : iso
}

/** JSON indented by two spaces with jq's colours: keys blue, strings green, numbers and booleans yellow, null dim. */
export function prettyJson(io: IO, value: unknown): string {
  const c = io.color
  const render = (v: unknown, indent: string): string => {
    if (v === null) return c.dim('null')
    if (typeof v === 'string') return c.green(JSON.stringify(v))
    if (typeof v === 'number' || typeof v === 'boolean') return c.yellow(String(v))
    const inner = `${indent}  `
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]'
      return `[\n${v.map((item) => inner + render(item, inner)).join(',\n')}\n${indent}]`
    }
    const entries = Object.entries(v as Record<string, unknown>)
    if (entries.length === 0) return '{}'
    return `{\n${entries.map(([k, item]) => `${inner}${c.blue(JSON.stringify(k))}: ${render(item, inner)}`).join(',\n')}\n${indent}}`
  }
  return render(value, '')
}
