// collab issue note: add, list, edit and delete the notes (comments) of an issue.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, positiveInt, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import { projectBeforePrompt, type Deps } from '../../../src/cli/factory.js'
import { noteColumns } from '../../../src/cli/notes.js'
import { printRaw, printTable, status } from '../../../src/cli/output.js'
import { reportWrite } from '../../project/shared.js'
import { route } from '../../../src/client/paths.js'
import { noteAddedMessage, noteBody, onIssue, withNoteBody, type Note } from '../shared.js'

export interface NoteOptions extends PageOptions {
  project?: string
  iid: number
  /** Set for edit and delete, whose `<note-id>` argument commander requires. */
  noteId?: number
  body?: string
  bodyFile?: string
  sort?: string
  orderBy?: string
  json: boolean
}

const toOptions = (iid: number, noteId: number | undefined, flags: OptionValues): NoteOptions => ({
  project: flags.project, iid, noteId, body: flags.message, bodyFile: flags.messageFile, sort: flags.sort, orderBy: flags.orderBy,
  ...pageOptions(flags), json: flags.json === true,
})

export async function add(options: NoteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await projectBeforePrompt(deps, options.project)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await api.send(route('createIssueNote', { id: ref, issue_iid: options.iid }), { body })
  reportWrite(deps.io, options.json, response, noteAddedMessage(response, `issue #${options.iid} in ${ref}`))
}

export async function list(options: NoteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listIssueNotes', { id: ref, issue_iid: options.iid }), { sort: options.sort, order_by: options.orderBy, ...pageQuery(options) }, { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  await printTable(deps.io, noteColumns(deps.io), page.items)
}

export async function edit(options: NoteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await projectBeforePrompt(deps, options.project)
  const body = await noteBody(deps, options.body, options.bodyFile)
  const { response } = await api.send(route('editIssueNote', { id: ref, issue_iid: options.iid, note_id: options.noteId! }), { body })
  reportWrite(deps.io, options.json, response, `Updated note ${options.noteId} of issue #${options.iid} in ${ref}`)
}

export async function remove(options: NoteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteIssueNote', { id: ref, issue_iid: options.iid, note_id: options.noteId! }))
  status(deps.io, `Deleted note ${options.noteId} of issue #${options.iid} in ${ref}`)
}

export function register(group: Command, rt: Runtime): void {
  const notes = group.command('note').description('Add, list, edit and delete the notes of an issue')
  const addCmd = withJson(withNoteBody(onIssue(notes.command('add').alias('comment').description('Comment on an issue'))))
  addCmd.action((iid: number, flags: OptionValues) => rt.invoke(addCmd, add, toOptions(iid, undefined, flags)))
  const listCmd = withJson(withPagination(onIssue(notes.command('list').alias('ls').description('List the notes of an issue'))))
    .option('--sort <direction>', 'asc or desc (server default: desc)')
    .option('--order-by <field>', 'created_at (default) or updated_at')
  listCmd.action((iid: number, flags: OptionValues) => rt.invoke(listCmd, list, toOptions(iid, undefined, flags)))
  const editCmd = withJson(withNoteBody(onIssue(notes.command('edit').description('Change a note'))).argument('<note-id>', 'the note id', positiveInt))
  editCmd.action((iid: number, noteId: number, flags: OptionValues) => rt.invoke(editCmd, edit, toOptions(iid, noteId, flags)))
  const delCmd = onIssue(notes.command('delete').description('Delete a note')).argument('<note-id>', 'the note id', positiveInt)
  delCmd.action((iid: number, noteId: number, flags: OptionValues) => rt.invoke(delCmd, remove, toOptions(iid, noteId, flags)))
}
