// collab mr review: a review of a merge request kept on the server as draft notes (GitLab's Draft Notes API): comment
// (on the merge request, a line of its diff, or in reply to a thread), list, delete, then submit them all at once.
import type { Command, OptionValues } from 'commander'
import { positiveInt, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { noteBody, withNoteBody } from '../../src/cli/issuable/notes.js'
import { printRaw, printTable, reportWrite, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

type DraftNote = ResponseOf<'getDraftNote'>

export interface ReviewOptions {
  project?: string
  mr?: string
  body?: string
  bodyFile?: string
  /** A line of the diff: the file, and its new line (or with oldLine, a removed or unchanged line's old number). */
  file?: string
  line?: number
  oldLine?: number
  replyTo?: string
  resolve: boolean
  draftId?: number
  json: boolean
}

const toOptions = (mr: string | undefined, draftId: number | undefined, flags: OptionValues): ReviewOptions => ({
  project: flags.project, mr, body: flags.message, bodyFile: flags.messageFile, file: flags.file, line: flags.line, oldLine: flags.oldLine,
  replyTo: flags.replyTo, resolve: flags.resolve === true, draftId, json: flags.json === true,
})

/** Where a draft sits, for the list: a file and line, a reply, or the merge request itself. */
const placeOf = (d: DraftNote) => {
  const p = d.position
  if (p.new_path || p.old_path) return `${p.new_path ?? p.old_path}:${p.new_line ?? p.old_line ?? ''}`
  return d.discussion_id ? `reply to ${d.discussion_id.slice(0, 8)}` : 'merge request'
}

export async function comment(options: ReviewOptions, deps: Deps): Promise<void> {
  if ((options.line !== undefined || options.oldLine !== undefined) && !options.file) throw usageError('--line and --old-line need --file')
  if (options.file && options.line === undefined && options.oldLine === undefined) throw usageError('--file needs --line or --old-line')
  if (options.file && options.replyTo) throw usageError('--file and --reply-to are mutually exclusive: a reply sits where its thread does')
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const note = await noteBody(deps, options.body, options.bodyFile)
  let position: Record<string, unknown> | undefined
  if (options.file) {
    const mr = await target.api.get(route('getProjectMergeRequest', { id: target.ref, merge_request_iid: target.iid }))
    if (!mr.diff_refs) throw usageError(`merge request ${reference(target)} has no diff to comment on`)
    position = { ...mr.diff_refs, position_type: 'text', old_path: options.file, new_path: options.file, new_line: options.line, old_line: options.oldLine }
  }
  const { response } = await target.api.send(route('createDraftNote', { id: target.ref, merge_request_iid: target.iid }), {
    note, position, in_reply_to_discussion_id: options.replyTo, resolve_discussion: options.resolve || undefined,
  })
  reportWrite(deps.io, options.json, response, `Added a pending comment to your review of merge request ${reference(target)} (submit it with collab mr review submit)`)
}

export async function list(options: ReviewOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const page = await target.api.list(route('listDraftNotes', { id: target.ref, merge_request_iid: target.iid }))
  if (options.json) return printRaw(deps.io, page.text)
  await printTable<DraftNote>(deps.io, [
    { header: 'ID', value: (d) => d.id, style: (text) => deps.io.color.dim(text) },
    { header: 'ON', value: placeOf },
    { header: 'COMMENT', value: (d) => d.note.split('\n')[0], flex: true },
  ], page.items)
}

export async function remove(options: ReviewOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  await target.api.call(route('deleteDraftNote', { id: target.ref, merge_request_iid: target.iid, draft_note_id: options.draftId! }))
  status(deps.io, `Deleted pending comment ${options.draftId} of merge request ${reference(target)}`)
}

export async function submit(options: ReviewOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const drafts = await target.api.get(route('listDraftNotes', { id: target.ref, merge_request_iid: target.iid }))
  if (!drafts.length) throw usageError(`no pending comments on merge request ${reference(target)}: add some with collab mr review comment`)
  await target.api.call(route('bulkPublishDraftNotes', { id: target.ref, merge_request_iid: target.iid }))
  status(deps.io, `Submitted a review of ${drafts.length} comment${drafts.length === 1 ? '' : 's'} on merge request ${reference(target)}`)
}

export function register(group: Command, rt: Runtime): void {
  const review = group.command('review').description('Comment as a review (draft notes only you see), then submit it at once')
  const commentCmd = withJson(withNoteBody(onMergeRequest(review.command('comment').alias('add').description('Add a pending comment to your review'))))
    .option('--file <path>', 'comment on a line of this file in the diff')
    .option('--line <n>', 'the line in the new version of --file', positiveInt)
    .option('--old-line <n>', 'the line in the old version (a removed line, or with --line an unchanged one)', positiveInt)
    .option('--reply-to <discussion-id>', 'reply in this thread when the review is submitted')
    .option('--resolve', 'with --reply-to: resolve the thread when the review is submitted')
  commentCmd.action((mr: string | undefined, flags: OptionValues) => rt.invoke(commentCmd, comment, toOptions(mr, undefined, flags)))
  const listCmd = withJson(onMergeRequest(review.command('list').alias('ls').description('List the pending comments of your review')))
  listCmd.action((mr: string | undefined, flags: OptionValues) => rt.invoke(listCmd, list, toOptions(mr, undefined, flags)))
  const delCmd = onMergeRequest(review.command('delete').description('Delete a pending comment').argument('<draft-id>', 'the pending comment id', positiveInt))
  delCmd.action((id: number, mr: string | undefined, flags: OptionValues) => rt.invoke(delCmd, remove, toOptions(mr, id, flags)))
  const submitCmd = onMergeRequest(review.command('submit').description('Publish every pending comment of your review at once'))
  submitCmd.action((mr: string | undefined, flags: OptionValues) => rt.invoke(submitCmd, submit, toOptions(mr, undefined, flags)))
}
