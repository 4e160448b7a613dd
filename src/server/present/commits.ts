// Commits and diffs as GitLab serializes them.
import type { Commit, DiffEntry } from '../../contract/entities/repository.js'
import type { RequestContext } from '../context.js'
import type { CommitInfo, DiffFile } from '../git/types.js'
import type { ProjectView } from '../store/projects.js'
import { projectFullPath } from './projects.js'

export interface CommitExtras {
  stats?: { additions: number; deletions: number; total: number }
  status?: string | null
  lastPipeline?: Commit['last_pipeline']
}

export function presentCommit(c: CommitInfo, p: ProjectView, ctx: Pick<RequestContext, 'baseUrl'>, extras: CommitExtras = {}): Commit {
  const trailers: Record<string, string> = {}
  const extended: Record<string, string[]> = {}
  for (const [k, v] of c.trailers) {
    trailers[k] = v
    ;(extended[k] ??= []).push(v)
  }
  const out: Commit = {
    id: c.id,
    short_id: c.id.slice(0, 8),
    created_at: c.committedDate,
    parent_ids: c.parents,
    title: c.message.split('\n')[0],
    message: c.message.endsWith('\n') ? c.message : `${c.message}\n`,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authoredDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committedDate,
    trailers,
    extended_trailers: extended,
    web_url: `${ctx.baseUrl}/${projectFullPath(p)}/-/commit/${c.id}`,
  }
  if (extras.stats) out.stats = extras.stats
  if (extras.status !== undefined) out.status = extras.status
  if (extras.lastPipeline !== undefined) out.last_pipeline = extras.lastPipeline
  return out
}

export const presentDiff = (d: DiffFile): DiffEntry => ({
  diff: d.diff,
  new_path: d.newPath,
  old_path: d.oldPath,
  a_mode: d.aMode,
  b_mode: d.bMode,
  new_file: d.newFile,
  renamed_file: d.renamedFile,
  deleted_file: d.deletedFile,
  generated_file: false,
})
