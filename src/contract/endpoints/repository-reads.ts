// More repository reads (issue 15): archives, blame, blobs, merge base, commit signatures, and reverting a commit.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { BlameRange, Blob, CommitSignature } from '../entities/repository-reads.js'
import { Commit } from '../entities/repository.js'
import { bool, int, list, ref, str } from '../params.js'

const Id = { id: ref() }
const Sha = { ...Id, sha: str(1024) }

const ArchiveInput = { sha: str(1024).optional(), path: str(4096).optional(), include_lfs_blobs: bool().optional(), exclude_paths: list(str(4096)).optional() }

export const getArchive = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/archive', summary: 'Download an archive of the repository (tar.gz)', auth: 'optional', raw: true,
  params: Id, input: ArchiveInput, responses: { 200: null },
})

export const getArchiveFormat = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/archive.:format', summary: 'Download an archive of the repository in a format (tar.gz, tar.bz2, tbz, tbz2, tb2, bz2, tar, zip)',
  auth: 'optional', raw: true, params: { ...Id, format: str(16) }, input: ArchiveInput, responses: { 200: null },
})

export const getFileBlame = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/files/:file_path/blame', summary: 'Blame of a file: ranges of lines with the commit that last changed them', auth: 'optional',
  params: { ...Id, file_path: str(4096) },
  input: { ref: str(1024).optional(), range: z.object({ start: int(), end: int() }, { error: 'is invalid' }).optional() },
  responses: { 200: z.array(BlameRange) },
})

export const getBlob = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/blobs/:sha', summary: 'A blob by its id, base64-encoded', auth: 'optional',
  params: Sha, responses: { 200: Blob },
})

export const getRawBlob = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/repository/blobs/:sha/raw', summary: 'The raw bytes of a blob', auth: 'optional', raw: true,
  params: Sha, responses: { 200: null },
})

export const getMergeBase = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/merge_base', summary: 'The common ancestor of two or more refs', auth: 'optional',
  params: Id, input: { refs: list(str(1024)) }, responses: { 200: Commit },
})

export const revertCommit = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository/commits/:sha/revert', summary: 'Revert a commit on a branch',
  params: Sha, input: { branch: str(1024), dry_run: bool().optional() }, responses: { 201: Commit },
})

export const getCommitSignature = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository/commits/:sha/signature', summary: 'The signature of a signed commit', auth: 'optional',
  params: Sha, responses: { 200: CommitSignature },
})
