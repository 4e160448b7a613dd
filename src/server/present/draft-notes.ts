// Draft notes as GitLab's Entities::DraftNote: a draft without a position still shows one, all null but its type.
import type { DraftNote } from '../../contract/endpoints/draft-notes.js'
import type { NotePosition } from '../../contract/entities/issues.js'
import type { DraftNoteRow } from '../store/draft-notes.js'

const NO_POSITION: NotePosition = {
  base_sha: null, start_sha: null, head_sha: null, old_path: null, new_path: null, position_type: 'text', old_line: null, new_line: null, line_range: null,
}

export const presentDraftNote = (d: DraftNoteRow): DraftNote => ({
  id: d.id,
  author_id: d.author_id,
  merge_request_id: d.noteable_id,
  resolve_discussion: d.resolve_discussion === 1,
  discussion_id: d.discussion_id,
  note: d.note,
  commit_id: d.commit_id,
  line_code: null,
  position: d.position ? (JSON.parse(d.position) as NotePosition) : NO_POSITION,
})
