// How data leaves the CLI: a table on a terminal, tab-separated lines when piped, the API's own bytes with --json.
// Terminal details (widths, colours, times) live in ./terminal.ts; its header says how a new command group uses both.
import type { ApiResponse } from '../client/http.js'
import type { IO } from './io.js'
import { prettyJson, terminalWidth, timeText } from './terminal.js'

type Cell = string | number | boolean | null | undefined

export interface Column<T> {
  header: string
  value(row: T): Cell
  /** Terminal-only styling of the cell text (after truncation, so widths stay right). */
  style?(text: string, row: T): string
  /** The value is an ISO time: relative ("3 days ago") on a terminal, unchanged when piped. */
  time?: boolean
  /** This column gives up its width first when the table is wider than the terminal (a title, a description). */
  flex?: boolean
}

const cellText = (value: Cell) => (value === null || value === undefined ? '' : String(value))
/** One record per line, one field per tab, whatever the data holds. */
const tsvCell = (text: string) => text.replace(/[\t\r\n]+/g, ' ')

/** `--json`: the response body unchanged when piped; indented and coloured on a terminal, where a person reads it. */
export function printRaw(io: IO, text: string): void {
  if (text === '') return
  if (io.stdoutIsTTY) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      value = undefined
    }
    if (value !== undefined) return void io.stdout.write(`${prettyJson(io, value)}\n`)
  }
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
}


/** Widths that fit `available`: flex columns shrink first, then the widest of the others. */
export function fitWidths(natural: number[], minimum: number[], flex: boolean[], available: number): number[] {
  const widths = [...natural]
  let excess = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1) - available
  for (const pass of [true, false]) {
    while (excess > 0) {
      let pick = -1
      for (let i = 0; i < widths.length; i++) {
        if ((pass && !flex[i]) || widths[i] <= minimum[i]) continue
        if (pick < 0 || widths[i] > widths[pick]) pick = i
      }
      if (pick < 0) break
      const cut = pass ? Math.min(excess, widths[pick] - minimum[pick]) : 1
      widths[pick] -= cut
      excess -= cut
    }
  }
  return widths
}

export async function printTable<T>(io: IO, columns: Column<T>[], rows: T[]): Promise<void> {
  const texts = rows.map((row) => columns.map((c) => {
    const text = cellText(c.value(row))
    return c.time ? timeText(io, text) : text
  }))
  if (!io.stdoutIsTTY) {
    for (const cells of texts) io.stdout.write(`${cells.map(tsvCell).join('\t')}\n`)
    return
  }
  if (rows.length === 0) return
  // A column empty in every row (no labels anywhere) only takes width from the others on a terminal.
  const kept = columns.filter((_, i) => texts.some((cells) => cells[i] !== ''))
  if (kept.length < columns.length) return printTable(io, kept, rows)
  const flat = texts.map((cells) => cells.map((t) => t.replace(/\s*\n\s*/g, ' ')))
  // Loaded here, not at the top: every command imports this module, and most print no table (--json, piped).
  const [{ displayWidth, truncate }, { default: Table }] = await Promise.all([import('./text-width.js'), import('cli-table3')])
  const natural = columns.map((c, i) => Math.max(displayWidth(c.header), ...flat.map((cells) => displayWidth(cells[i]))))
  // The narrowest a column gets: its header, or its content when shorter, and never under 4 columns.
  const minimum = columns.map((c, i) => Math.min(natural[i], Math.max(4, displayWidth(c.header))))
  const widths = fitWidths(natural, minimum, columns.map((c) => c.flex === true), terminalWidth(io))
  // cli-table3 lays the cells out borderless, two spaces between columns; cells arrive cut to width and styled (the
  // styles after the cut, so widths count what is seen), and no line ends in spaces.
  const table = new Table({
    head: columns.map((c, i) => io.color.bold(truncate(c.header, widths[i]))),
    chars: BORDERLESS,
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
    colWidths: widths.map((w, i) => (i < widths.length - 1 ? w + 2 : w)),
    wordWrap: false,
  })
  flat.forEach((cells, r) => table.push(columns.map((c, i) => {
    const text = truncate(cells[i], widths[i])
    return c.style && text ? c.style(text, rows[r]) : text
  })))
  io.stdout.write(`${table.toString().split('\n').map((l) => l.trimEnd()).join('\n')}\n`)
}

const BORDERLESS = Object.fromEntries(['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right',
  'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid', 'middle'].map((k) => [k, '']))

export interface ListFacts {
  /** Plural noun for the hints: `issues`, `merge requests`, `jobs`. */
  noun: string
  /** Where the list is from, for the hints: `root/demo`, `group g`. */
  where?: string
}

/** The X-Total of the last page, when the server sent one (GitLab omits it past 10,000 rows). */
function totalOf(responses: ApiResponse[]): number | undefined {
  const last = responses[responses.length - 1]
  const header = last?.rawHeaders.find(([name]) => name.toLowerCase() === 'x-total')?.[1]
  return header === undefined || header === '' ? undefined : Number(header)
}

const hasNextPage = (responses: ApiResponse[]) =>
  !!responses[responses.length - 1]?.rawHeaders.find(([name, value]) => name.toLowerCase() === 'x-next-page' && value !== '')

/** A table of one page (or all pages) of a list, and on a terminal what it leaves out: "Showing 20 of 53 issues". */
export async function printList<T>(io: IO, columns: Column<T>[], page: { items: T[]; responses: ApiResponse[] }, facts: ListFacts): Promise<void> {
  await printTable(io, columns, page.items)
  if (!io.stdoutIsTTY) return
  const where = facts.where ? ` in ${facts.where}` : ''
  const shown = page.items.length
  if (shown === 0) return void io.stderr.write(`No ${facts.noun}${where} match.\n`)
  const total = totalOf(page.responses)
  if (total !== undefined && total > shown) io.stderr.write(io.color.dim(`Showing ${shown} of ${total} ${facts.noun}${where}; --all shows every page\n`))
  else if (total === undefined && hasNextPage(page.responses)) io.stderr.write(io.color.dim(`Showing ${shown} ${facts.noun}${where}; --all shows every page\n`))
}

/**
 * One record as `label<TAB>value` lines when piped (every label, always), aligned `label: value` lines on a terminal.
 * A `body` (a description) keeps its newlines: on a terminal after a blank line, before what `after` prints (notes);
 * piped, last, after a `--` line, so every line before it is still one field.
 */
export function printFields(io: IO, fields: [label: string, value: Cell][], body?: string | null, after?: () => void): void {
  const text = body ?? ''
  const tail = text === '' || text.endsWith('\n') ? text : `${text}\n`
  if (!io.stdoutIsTTY) {
    for (const [label, value] of fields) io.stdout.write(`${label}\t${tsvCell(cellText(value))}\n`)
    after?.()
    if (body !== undefined) io.stdout.write(`--\n${tail}`)
    return
  }
  const shown = fields.filter(([, value]) => cellText(value) !== '')
  const width = Math.max(...shown.map(([label]) => label.length)) + 1
  for (const [label, value] of shown) io.stdout.write(`${io.color.dim(`${label}:`.padEnd(width))} ${cellText(value)}\n`)
  if (tail !== '') io.stdout.write(`\n${tail}`)
  after?.()
}

/** Progress and confirmations go to stderr, so stdout stays data. */
export function status(io: IO, message: string): void {
  io.stderr.write(`${io.stdoutIsTTY ? io.color.green('✓ ') : ''}${message}\n`)
}

/** A write verb's ending: the API's JSON with --json, then what was done as a status line on stderr, always. */
export function reportWrite(io: IO, json: boolean, response: ApiResponse, message: string): void {
  if (json) printRaw(io, response.text)
  status(io, message)
}
