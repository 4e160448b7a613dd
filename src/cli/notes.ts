// Notes of issues and merge requests: the `note list` columns, and the notes under `issue view` and `mr view --comments`.
import type { IO } from './io.js'
import type { Column } from './output.js'
import { timeText } from './terminal.js'

interface PrintableNote { id: number; body: string; system: boolean; created_at: string; author: { username: string } }

/** One tab-separated line per note when piped, a thread on a terminal. */
export function printNotes(io: IO, notes: PrintableNote[]): void {
  if (!io.stdoutIsTTY) {
    for (const n of notes) io.stdout.write(`note\t${n.id}\t${n.author.username}\t${n.created_at}\t${n.system ? 'system' : 'comment'}\t${n.body.replace(/[\t\r\n]+/g, ' ')}\n`)
    return
  }
  for (const n of notes) {
    const who = n.system ? io.color.dim(`@${n.author.username} ${n.body}`) : io.color.bold(`@${n.author.username}`)
    io.stdout.write(`\n${who} ${io.color.dim(timeText(io, n.created_at))}\n${n.system ? '' : `${n.body}\n`}`)
  }
}

export const noteColumns = (io: IO): Column<PrintableNote>[] => [
  { header: 'ID', value: (n) => n.id, style: (text) => io.color.dim(text) },
  { header: 'AUTHOR', value: (n) => n.author.username, style: (text) => io.color.bold(text) },
  { header: 'CREATED', value: (n) => n.created_at, time: true },
  { header: 'KIND', value: (n) => (n.system ? 'system' : 'comment') },
  { header: 'BODY', value: (n) => n.body, flex: true },
]
