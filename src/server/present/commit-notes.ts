// Commit statuses and commit comments as GitLab serializes them.
import type { RequestContext } from '../context.js'
import type { CommitCommentRow } from '../store/commit-comments.js'
import type { CommitStatusRow } from '../store/commit-statuses.js'
import type { UserRow } from '../store/users.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl'>

export const presentCommitStatus = (s: CommitStatusRow, author: UserRow, ctx: Urls) => ({
  id: s.id,
  sha: s.sha,
  ref: s.ref,
  status: s.status,
  name: s.name,
  target_url: s.target_url,
  description: s.description,
  coverage: s.coverage,
  pipeline_id: s.pipeline_id,
  created_at: s.created_at,
  started_at: s.started_at,
  finished_at: s.finished_at,
  allow_failure: s.allow_failure === 1,
  author: presentUserBasic(author, ctx),
})

export const presentCommitComment = (c: CommitCommentRow, author: UserRow, ctx: Urls) => ({
  note: c.note,
  path: c.path,
  line: c.line,
  line_type: c.line_type,
  author: presentUserBasic(author, ctx),
  created_at: c.created_at,
})
