// Notes and award emoji of one issue, merge request or snippet, copied in the order they were written. System notes
// stay behind: the target writes its own as the copy is closed, labelled or assigned.
import type { EndpointName } from '../../src/contract/routes.js'
import { at, count, type Migration } from './migrate-context.js'
import { carried } from './migrate-uploads.js'
import { authorHeader } from './migrate-people.js'
import { messageOf, statusOf } from './migrate-side.js'

export type NoteableKind = 'issue' | 'merge_request' | 'snippet'

interface Names { notes: EndpointName; note: EndpointName; awards: EndpointName; award: EndpointName; noteAwards: EndpointName; noteAward: EndpointName }

const ROUTES: Record<NoteableKind, Names> = {
  issue: {
    notes: 'listIssueNotes', note: 'createIssueNote', awards: 'listIssueAwardEmoji', award: 'createIssueAwardEmoji',
    noteAwards: 'listIssueNoteAwardEmoji', noteAward: 'createIssueNoteAwardEmoji',
  },
  merge_request: {
    notes: 'listMergeRequestNotes', note: 'createMergeRequestNote', awards: 'listMergeRequestAwardEmoji', award: 'createMergeRequestAwardEmoji',
    noteAwards: 'listMergeRequestNoteAwardEmoji', noteAward: 'createMergeRequestNoteAwardEmoji',
  },
  snippet: {
    notes: 'listSnippetNotes', note: 'createSnippetNote', awards: 'listSnippetAwardEmoji', award: 'createSnippetAwardEmoji',
    noteAwards: 'listSnippetNoteAwardEmoji', noteAward: 'createSnippetNoteAwardEmoji',
  },
}

/** The path parameter naming the item in its kind's routes. */
export const ITEM_PARAM: Record<NoteableKind, string> = { issue: 'issue_iid', merge_request: 'merge_request_iid', snippet: 'snippet_id' }

export interface Noteable {
  kind: NoteableKind
  /** The item's iid (issues, merge requests) or id (snippets) on each side. */
  from: number
  to: number
  /** How the report names it: `issue #3`. */
  label: string
  /** The source's `user_notes_count`, when it tells: none means no notes to read. */
  userNotes?: number
}

interface Note {
  id: number
  body: string
  system: boolean
  created_at: string
  author: { username: string }
  position?: { new_path?: string | null; old_path?: string | null; new_line?: number | null; old_line?: number | null } | null
}

interface Award {
  id: number
  name: string
  user: { username: string }
}

export async function copyDiscussion(m: Migration, item: Noteable): Promise<void> {
  const names = ROUTES[item.kind]
  const param = ITEM_PARAM[item.kind]
  const fromParams = { id: m.from.id, [param]: item.from }
  const toParams = { id: m.to.id, [param]: item.to }
  await copyAwards(m, at(names.awards, fromParams), (sudo, name) => m.target.write(at(names.award, toParams), { name }, sudo), item.label, `${item.kind}:${item.from}`)
  const notes = item.userNotes === 0 ? [] : await m.source.all<Note>(at(names.notes, fromParams), { sort: 'asc', order_by: 'created_at' })
  for (const note of notes) {
    if (note.system) continue
    let copied = m.journal.get('note', `${item.kind}:${note.id}`) as number | undefined
    if (copied === undefined) {
      const writer = await m.people.author(note.author.username)
      const body = authorHeader(note.author.username, writer.kept, note.created_at, true) + placeOf(note) + (await carried(m, note.body))
      const created = await m.target.write<{ id: number }>(at(names.note, toParams), { body, created_at: note.created_at }, writer.sudo)
      m.journal.record('note', `${item.kind}:${note.id}`, created.id)
      count(m.tally, 'copied', 'notes')
      copied = created.id
    } else count(m.tally, 'already', 'notes')
    const onNote = copied
    await copyAwards(
      m, at(names.noteAwards, { ...fromParams, note_id: note.id }),
      (sudo, name) => m.target.write(at(names.noteAward, { ...toParams, note_id: onNote }), { name }, sudo), `a note on ${item.label}`,
      `${item.kind}:${item.from}:note:${note.id}`,
    )
  }
}

/** A diff note becomes a plain note that says where it was: positions point at commits the target may lay out differently. */
function placeOf(note: Note): string {
  const p = note.position
  if (!p) return ''
  const path = p.new_path ?? p.old_path
  const line = p.new_line ?? p.old_line
  return path ? `*On ${path}${line ? ` line ${line}` : ''}:*\n\n` : ''
}

async function copyAwards(
  m: Migration, list: ReturnType<typeof at>, award: (sudo: string | undefined, name: string) => Promise<unknown>, label: string, on: string,
): Promise<void> {
  const awards = await m.source.all<Award>(list)
  for (const a of awards) {
    if (m.journal.has('award', `${on}:${a.id}`)) {
      count(m.tally, 'already', 'award emoji')
      continue
    }
    const writer = await m.people.awarder(a.user.username)
    if (!writer) {
      const why = m.people.sudo ? 'no such user on the target' : 'the target token may not award as another user (sudo)'
      m.tally.problems.push(`award :${a.name}: by ${a.user.username} on ${label}: ${why}`)
      continue
    }
    try {
      const created = (await award(writer.sudo, a.name)) as { id: number }
      m.journal.record('award', `${on}:${a.id}`, created.id)
      count(m.tally, 'copied', 'award emoji')
    } catch (err) {
      const status = statusOf(err)
      if (status === undefined || status >= 500) throw err
      m.tally.problems.push(`award :${a.name}: by ${a.user.username} on ${label}: ${messageOf(err)}`)
    }
  }
}
