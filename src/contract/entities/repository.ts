// Repository shapes: commits, diffs, comments, statuses, refs, branches, tags, tree entries and files (api-v4.md §Commit…, compat-notes §2).
import { z } from 'zod'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()

export const CommitStats = z.object({ additions: z.number().int(), deletions: z.number().int(), total: z.number().int() })

export const PipelineRef = z.object({ id: z.number().int(), iid: z.number().int().optional(), project_id: z.number().int().optional(), ref: z.string(), sha: z.string(), status: z.string(), web_url: z.string().optional() })

export const Commit = z.object({
  id: z.string(),
  short_id: z.string(),
  created_at: z.string(),
  parent_ids: z.array(z.string()),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: z.string(),
  trailers: z.record(z.string(), z.string()),
  extended_trailers: z.record(z.string(), z.array(z.string())),
  web_url: z.string(),
  stats: CommitStats.optional(),
  status: nstr.optional(),
  last_pipeline: PipelineRef.nullable().optional(),
  project_id: z.number().int().optional(),
})
export type Commit = z.infer<typeof Commit>

export const DiffEntry = z.object({
  diff: z.string(),
  new_path: z.string(),
  old_path: z.string(),
  a_mode: nstr,
  b_mode: nstr,
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean().nullable(),
  collapsed: z.boolean().optional(),
  too_large: z.boolean().optional(),
})
export type DiffEntry = z.infer<typeof DiffEntry>

export const CommitComment = z.object({
  note: z.string(),
  author: UserBasic,
  created_at: z.string().optional(),
  line_type: z.enum(['new', 'old']).nullable().optional(),
  path: nstr.optional(),
  line: z.number().int().nullable().optional(),
})

export const CommitStatus = z.object({
  id: z.number().int(),
  sha: z.string(),
  ref: nstr,
  status: z.enum(['pending', 'running', 'success', 'failed', 'canceled']),
  name: z.string(),
  target_url: nstr,
  description: nstr,
  coverage: z.number().nullable().optional(),
  pipeline_id: z.number().int().nullable(),
  created_at: z.string(),
  started_at: nstr,
  finished_at: nstr,
  allow_failure: z.boolean(),
  author: UserBasic,
})

export const CommitRef = z.object({ type: z.enum(['branch', 'tag']), name: z.string() })

export const Branch = z.object({
  name: z.string(),
  commit: Commit,
  merged: z.boolean(),
  protected: z.boolean(),
  developers_can_push: z.boolean(),
  developers_can_merge: z.boolean(),
  can_push: z.boolean(),
  default: z.boolean(),
  web_url: z.string(),
})

export const Tag = z.object({
  name: z.string(),
  message: nstr,
  target: z.string(),
  commit: Commit,
  /** The tag's release notes (Entities::TagRelease), null when the tag has no release. */
  release: z.object({ tag_name: z.string(), description: z.string().nullable() }).nullable(),
  protected: z.boolean(),
  created_at: nstr,
})

export const TreeEntry = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['tree', 'blob', 'commit']),
  path: z.string(),
  mode: z.string(),
})

export const RepositoryFile = z.object({
  file_name: z.string(),
  file_path: z.string(),
  size: z.number().int(),
  encoding: z.literal('base64'),
  content_sha256: z.string(),
  ref: z.string(),
  blob_id: z.string(),
  commit_id: z.string(),
  last_commit_id: z.string(),
  execute_filemode: z.boolean(),
  content: z.string(),
})

/** GET …/repository/compare (Entities::Compare): the newest commit, the commits oldest first, the diff. */
export const Compare = z.object({
  commit: Commit.nullable(),
  commits: z.array(Commit),
  diffs: z.array(DiffEntry),
  compare_timeout: z.boolean(),
  compare_same_ref: z.boolean(),
  web_url: z.string(),
})
export type Compare = z.infer<typeof Compare>
