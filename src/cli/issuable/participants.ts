// The participants of an issuable (author, assignees, commenters) as a table.
import type { IO } from '../io.js'
import type { Column } from '../output.js'

interface Participant { id: number; username: string; name: string }

export const participantColumns = (io: IO): Column<Participant>[] => [
  { header: 'ID', value: (u) => u.id, style: (text) => io.color.dim(text) },
  { header: 'USERNAME', value: (u) => u.username, style: (text) => io.color.bold(text) },
  { header: 'NAME', value: (u) => u.name },
]
