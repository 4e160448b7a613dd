// The Commits API of api-v4.md §Commits, statuses included.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { MergeRequestRef } from '../entities/merge-request-ref.js'
import { Commit, CommitComment, CommitRef, CommitStatus, DiffEntry } from '../entities/repository.js'
import { bool, int, isoDate, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const Sha = { id: ref(), sha: str(1024) }

export const CommitAction = z.object({
  action: oneOf(['create', 'delete', 'move', 'update', 'chmod']),
  file_path: str(4096),
  previous_path: str(4096).optional(),
  content: z.string({ error: 'is invalid' }).optional(),
  encoding: oneOf(['text', 'base64']).optional(),
  last_commit_id: str(64).optional(),
  execute_filemode: bool().optional(),
})
export type CommitAction = z.output<typeof CommitAction>

export const listCommits = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits', summary: 'List repository commits', auth: 'optional', paginated: true,
  params: Id,
  input: {
    ref_name: str(1024).optional(), since: isoDate().optional(), until: isoDate().optional(), path: str(4096).optional(),
    all: bool().optional(), with_stats: bool().optional(), first_parent: bool().optional(), order: oneOf(['default', 'topo']).optional(),
    author: str().optional(),
  },
  responses: { 200: z.array(Commit) },
})

export const createCommit = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/commits', summary: 'Create a commit with multiple files and actions',
  params: Id,
  input: {
    branch: str(1024), commit_message: text(), start_branch: str(1024).optional(), start_sha: str(64).optional(),
    start_project: ref().optional(), actions: z.array(CommitAction, { error: 'is invalid' }), author_email: str().optional(),
    author_name: str().optional(), stats: bool().optional(), force: bool().optional(),
  },
  responses: { 201: Commit },
})

export const getCommit = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/commits/:sha', summary: 'Get a single commit by hash, branch or tag', auth: 'optional',
  params: Sha, input: { stats: bool().optional() }, responses: { 200: Commit },
})

export const getCommitRefs = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/refs', summary: 'Branches and tags containing a commit', auth: 'optional', paginated: true,
  params: Sha, input: { type: oneOf(['branch', 'tag', 'all']).optional() }, responses: { 200: z.array(CommitRef) },
})

export const cherryPickCommit = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/commits/:sha/cherry_pick', summary: 'Cherry-pick a commit onto a branch',
  params: Sha, input: { branch: str(1024), dry_run: bool().optional(), message: text().optional() },
  responses: { 201: Commit },
})

export const getCommitDiff = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/diff', summary: 'Diff of a commit against its first parent', auth: 'optional', paginated: true,
  params: Sha, input: { unidiff: bool().optional() }, responses: { 200: z.array(DiffEntry) },
})

export const listCommitComments = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/comments', summary: 'Comments on a commit', auth: 'optional', paginated: true,
  params: Sha, responses: { 200: z.array(CommitComment) },
})

export const createCommitComment = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/commits/:sha/comments', summary: 'Comment on a commit, optionally on a line of a file',
  params: Sha, input: { note: text(), path: str(4096).optional(), line: int().optional(), line_type: oneOf(['new', 'old']).optional() },
  responses: { 201: CommitComment },
})

export const listCommitStatuses = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/statuses', summary: 'Statuses of a commit', auth: 'optional', paginated: true,
  params: Sha, input: { ref: str(1024).optional(), stage: str().optional(), name: str().optional(), all: bool().optional() },
  responses: { 200: z.array(CommitStatus) },
})

export const postCommitStatus = defineEndpoint({
  method: 'POST', path: '/projects/:id/statuses/:sha', summary: 'Add or update the status of a commit',
  // Beyond GitLab 17 (issue 11): a job posts statuses of its own project with nothing but its job token.
  jobToken: true,
  params: Sha,
  input: {
    state: oneOf(['pending', 'running', 'success', 'failed', 'canceled']), ref: str(1024).optional(), name: str().optional(),
    context: str().optional(), target_url: str(2048).optional(), description: str(1024).optional(),
    coverage: z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number({ error: 'is invalid' }).finite({ error: 'is invalid' })).optional(),
    pipeline_id: int().optional(),
  },
  responses: { 201: CommitStatus },
})

export const listCommitMergeRequests = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/merge_requests', summary: 'Merge requests related to a commit', auth: 'optional', paginated: true,
  params: Sha, responses: { 200: z.array(MergeRequestRef) },
})
