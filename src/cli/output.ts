// How data leaves the CLI: a table on a terminal, tab-separated lines when piped, the API's own bytes with --json.
import type { IO } from './io.js'

type Cell = string | number | boolean | null | undefined

export interface Column<T> {
  header: string
  value(row: T): Cell
  /** Terminal-only styling of the cell text. */
  style?(text: string, row: T): string
}

const cellText = (value: Cell) => (value === null || value === undefined ? '' : String(value))
/** One record per line, one field per tab, whatever the data holds. */
const tsvCell = (text: string) => text.replace(/[\t\r\n]+/g, ' ')

/** `--json`: the response body unchanged, plus a final newline for the terminal. */
export function printRaw(io: IO, text: string): void {
  if (text === '') return
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
}

export async function printTable<T>(io: IO, columns: Column<T>[], rows: T[]): Promise<void> {
  if (!io.stdoutIsTTY) {
    for (const row of rows) io.stdout.write(`${columns.map((c) => tsvCell(cellText(c.value(row)))).join('\t')}\n`)
    return
  }
  if (rows.length === 0) return
  const { default: Table } = await import('cli-table3')
  const table = new Table({
    head: columns.map((c) => io.color.bold(c.header)),
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  })
  for (const row of rows) {
    table.push(columns.map((c) => {
      const text = cellText(c.value(row)).replace(/\s*\n\s*/g, ' ')
      return c.style && text ? c.style(text, row) : text
    }))
  }
  io.stdout.write(`${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`)
}

/** One record as `label<TAB>value` lines when piped (every label, always), aligned `label: value` lines on a terminal. */
export function printFields(io: IO, fields: [label: string, value: Cell][]): void {
  if (!io.stdoutIsTTY) {
    for (const [label, value] of fields) io.stdout.write(`${label}\t${tsvCell(cellText(value))}\n`)
    return
  }
  const shown = fields.filter(([, value]) => cellText(value) !== '')
  const width = Math.max(...shown.map(([label]) => label.length)) + 1
  for (const [label, value] of shown) io.stdout.write(`${io.color.dim(`${label}:`.padEnd(width))} ${cellText(value)}\n`)
}

/** Progress and confirmations go to stderr, so stdout stays data. */
export function status(io: IO, message: string): void {
  io.stderr.write(`${io.stdoutIsTTY ? io.color.green('✓ ') : ''}${message}\n`)
}
