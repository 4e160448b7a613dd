// `<kind> note`: add, list, edit and delete the notes (comments) of an issue or a merge request.
import type { Command, OptionValues } from 'commander'
import type { ApiResponse } from '../../client/http.js'
import { pageOptions, pageQuery, positiveInt, withJson, withPagination, type PageOptions, type Runtime } from '../command.js'
import { usageError } from '../errors.js'
import type { Deps } from '../factory.js'
import { noteColumns } from '../notes.js'
import { printRaw, printTable, reportWrite, status } from '../output.js'
import { readText } from '../text-input.js'
import { onTarget, reference, routeOn, targetAction, type IssuableKind, type TargetOptions } from './kind.js'

export interface NoteOptions extends TargetOptions, PageOptions {
  /** Set for edit and delete. */
  noteId?: number
  body?: string
  bodyFile?: string
  sort?: string
  orderBy?: string
  json: boolean
}

/** `-m TEXT` / `-F FILE` of the note verbs. */
export const withNoteBody = (command: Command) => command
  .option('-m, --message <text>', 'the note text (an emoji alone such as :thumbsup: awards it)')
  .option('-F, --message-file <file>', 'read the note from a file, or - for stdin')

/** The note text from -m, -F, or $EDITOR on a terminal. */
export async function noteBody(deps: Deps, body: string | undefined, bodyFile: string | undefined): Promise<string> {
  if (body !== undefined && bodyFile !== undefined) throw usageError('--message and --message-file are mutually exclusive')
  if (bodyFile !== undefined) return readText(deps, bodyFile)
  if (body !== undefined) return body
  return deps.prompter.editor('Note (saved when the editor closes)', '--message')
}

/**
 * What a note add did: a body of only an emoji (`:thumbsup:`) makes GitLab award it and answer with the award
 * (`awardable_type`, `name`) instead of a note.
 */
export function noteAddedMessage(response: ApiResponse, noteOn: string): string {
  let data: { awardable_type?: string; name?: string } | null = null
  try {
    data = JSON.parse(response.text)
  } catch {}
  return data?.awardable_type && data.name ? `Awarded :${data.name}: to ${noteOn} (a note of only an emoji is an award)` : `Added a note to ${noteOn}`
}

export async function addNote(kind: IssuableKind, options: NoteOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options, true)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await target.api.send(routeOn(kind, kind.endpoints.notes.create, target), { body })
  reportWrite(deps.io, options.json, response, noteAddedMessage(response, `${kind.noun} ${reference(kind, target)}`))
}

export async function listNotes(kind: IssuableKind, options: NoteOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  const query = { sort: options.sort, order_by: options.orderBy, ...pageQuery(options) }
  const page = await target.api.list(routeOn(kind, kind.endpoints.notes.list, target), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, noteColumns(deps.io), page.items)
}

export async function editNote(kind: IssuableKind, options: NoteOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options, true)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await target.api.send(routeOn(kind, kind.endpoints.notes.edit, target, { note_id: options.noteId! }), { body })
  reportWrite(deps.io, options.json, response, `Updated note ${options.noteId} of ${kind.noun} ${reference(kind, target)}`)
}

export async function deleteNote(kind: IssuableKind, options: NoteOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  await target.api.call(routeOn(kind, kind.endpoints.notes.delete, target, { note_id: options.noteId! }))
  status(deps.io, `Deleted note ${options.noteId} of ${kind.noun} ${reference(kind, target)}`)
}

const noteId = (command: Command) => command.argument('<note-id>', 'the note id', positiveInt)

export function registerNotes(group: Command, rt: Runtime, kind: IssuableKind): void {
  const notes = group.command('note').description(`Add, list, edit and delete the notes of ${kind.a}`)
  const verb = (command: Command, run: (kind: IssuableKind, options: NoteOptions, deps: Deps) => Promise<void>) =>
    targetAction(kind, command, (target, args, flags: OptionValues) => rt.invoke(command, (o: NoteOptions, deps: Deps) => run(kind, o, deps), {
      ...target, noteId: args[0] as number | undefined, body: flags.message, bodyFile: flags.messageFile, sort: flags.sort, orderBy: flags.orderBy,
      ...pageOptions(flags), json: flags.json === true,
    }))
  verb(withJson(withNoteBody(onTarget(kind, notes.command('add').alias('comment').description(`Comment on ${kind.a}`)))), addNote)
  verb(withJson(withPagination(onTarget(kind, notes.command('list').alias('ls').description(`List the notes of ${kind.a}`))))
    .option('--sort <direction>', 'asc or desc (server default: desc)')
    .option('--order-by <field>', 'created_at (default) or updated_at'), listNotes)
  verb(withJson(withNoteBody(onTarget(kind, notes.command('edit').description('Change a note'), noteId))), editNote)
  verb(onTarget(kind, notes.command('delete').description('Delete a note'), noteId), deleteNote)
}
