// collab mr note: add, list, edit and delete the notes (comments) of a merge request.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, positiveInt, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { noteColumns } from '../../../src/cli/notes.js'
import { printRaw, printTable, status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { noteAddedMessage, noteBody, withNoteBody } from '../../issue/shared.js'
import { reportWrite } from '../../project/shared.js'
import { onMergeRequest, reference, resolveMergeRequest } from '../shared.js'

export interface NoteOptions extends PageOptions {
  project?: string
  mr?: string
  /** Set for edit and delete. */
  noteId?: number
  body?: string
  bodyFile?: string
  sort?: string
  orderBy?: string
  json: boolean
}

const toOptions = (mr: string | undefined, noteId: number | undefined, flags: OptionValues): NoteOptions => ({
  project: flags.project, mr, noteId, body: flags.message, bodyFile: flags.messageFile, sort: flags.sort, orderBy: flags.orderBy,
  ...pageOptions(flags), json: flags.json === true,
})

export async function add(options: NoteOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await target.api.send(route('createMergeRequestNote', { id: target.ref, merge_request_iid: target.iid }), { body })
  reportWrite(deps.io, options.json, response, noteAddedMessage(response, `merge request ${reference(target)}`))
}

export async function list(options: NoteOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const query = { sort: options.sort, order_by: options.orderBy, ...pageQuery(options) }
  const page = await target.api.list(route('listMergeRequestNotes', { id: target.ref, merge_request_iid: target.iid }), query, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, noteColumns(deps.io), page.items)
}

export async function edit(options: NoteOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await target.api.send(route('editMergeRequestNote', { id: target.ref, merge_request_iid: target.iid, note_id: options.noteId! }), { body })
  reportWrite(deps.io, options.json, response, `Updated note ${options.noteId} of merge request ${reference(target)}`)
}

export async function remove(options: NoteOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  await target.api.call(route('deleteMergeRequestNote', { id: target.ref, merge_request_iid: target.iid, note_id: options.noteId! }))
  status(deps.io, `Deleted note ${options.noteId} of merge request ${reference(target)}`)
}

/** edit and delete name the note first: `collab mr note edit <note-id> [mr]`, since the merge request may be left out. */
export function register(group: Command, rt: Runtime): void {
  const notes = group.command('note').description('Add, list, edit and delete the notes of a merge request')
  const addCmd = withJson(withNoteBody(onMergeRequest(notes.command('add').alias('comment').description('Comment on a merge request'))))
  addCmd.action((mr: string | undefined, flags: OptionValues) => rt.invoke(addCmd, add, toOptions(mr, undefined, flags)))
  const listCmd = withJson(withPagination(onMergeRequest(notes.command('list').alias('ls').description('List the notes of a merge request'))))
    .option('--sort <direction>', 'asc or desc (server default: desc)')
    .option('--order-by <field>', 'created_at (default) or updated_at')
  listCmd.action((mr: string | undefined, flags: OptionValues) => rt.invoke(listCmd, list, toOptions(mr, undefined, flags)))
  const editCmd = withJson(withNoteBody(onMergeRequest(notes.command('edit').description('Change a note').argument('<note-id>', 'the note id', positiveInt))))
  editCmd.action((noteId: number, mr: string | undefined, flags: OptionValues) => rt.invoke(editCmd, edit, toOptions(mr, noteId, flags)))
  const delCmd = onMergeRequest(notes.command('delete').description('Delete a note').argument('<note-id>', 'the note id', positiveInt))
  delCmd.action((noteId: number, mr: string | undefined, flags: OptionValues) => rt.invoke(delCmd, remove, toOptions(mr, noteId, flags)))
}
