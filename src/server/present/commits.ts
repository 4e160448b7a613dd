// Commits and diffs as GitLab serializes them.
import type { Commit, Compare, DiffEntry } from '../../contract/entities/repository.js'
import type { RequestContext } from '../context.js'
import type { CommitInfo, DiffFile } from '../git/types.js'
import type { ProjectView } from '../store/projects.js'
import { projectFullPath } from '../../core/project-path.js'

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
    // As stored: most messages end with a newline, a revert's (written as GitLab writes it) does not.
    message: c.message,
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

/** GitLab's default diff_max_patch_bytes: a file's patch this large is shown empty and `too_large`. */
const MAX_PATCH_BYTES = 200 * 1024

const side = (prefix: 'a' | 'b', path: string, missing: boolean) => (missing ? '/dev/null' : `${prefix}/${path}`)

/** Gitlab::Git::Diff#unidiff: the hunks under `---`/`+++` lines; a binary notice or an empty diff as it is. */
function unidiff(f: DiffFile): string {
  if (!f.diff || f.diff.startsWith('Binary files ')) return f.diff
  return `--- ${side('a', f.oldPath, f.newFile)}\n+++ ${side('b', f.newPath, f.deletedFile)}\n${f.diff}`
}

export interface DiffOptions {
  /** `unidiff=true`: the hunks under `---`/`+++` lines. */
  unidiff?: boolean
  /** Entities::Diff's `collapsed` and `too_large`, as the merge request diffs and compare show them. */
  limits?: boolean
}

export function presentDiff(d: DiffFile, opts: DiffOptions = {}): DiffEntry {
  const tooLarge = opts.limits === true && Buffer.byteLength(d.diff) >= MAX_PATCH_BYTES
  const out: DiffEntry = {
    diff: tooLarge ? '' : opts.unidiff ? unidiff(d) : d.diff,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: false,
  }
  // The API's diffs are expanded, so none is collapsed; a patch past the hard limit is dropped (Gitlab::Git::Diff#too_large!).
  return opts.limits ? { ...out, collapsed: false, too_large: tooLarge } : out
}

/** Two refs compared (services/repository/repository-compare.ts). */
export interface ComparisonView {
  /** The project whose repository the comparison ran in (the `from` side's), for web_url. */
  project: ProjectView
  commits: CommitInfo[]
  diffs: readonly DiffFile[]
  same: boolean
  /** More files changed than GitLab's diff limit lets a comparison show: the rest are left out (compare_timeout). */
  overflow: boolean
  /** The web page's `from`: the start commit when straight, else the merge base. */
  fromSha: string | null
  toSha: string
}

/** Entities::Compare: `commit` is the newest of `commits` (oldest first); web_url opens the compare page. */
export const presentCompare = (c: ComparisonView, ctx: Pick<RequestContext, 'baseUrl'>, opts: { unidiff?: boolean } = {}): Compare => ({
  commit: c.commits.length ? presentCommit(c.commits[c.commits.length - 1], c.project, ctx) : null,
  commits: c.commits.map((x) => presentCommit(x, c.project, ctx)),
  diffs: c.diffs.map((d) => presentDiff(d, { unidiff: opts.unidiff, limits: true })),
  compare_timeout: c.overflow,
  compare_same_ref: c.same,
  web_url: `${ctx.baseUrl}/${projectFullPath(c.project)}/-/compare/${c.fromSha ?? ''}...${c.toSha}`,
})
