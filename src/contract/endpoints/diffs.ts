// Diffs as bots read them (issue 23): a merge request's diffs page by page and as one patch, and two refs compared.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Compare, DiffEntry } from '../entities/repository.js'
import { bool, int, ref, str } from '../params.js'
import { MergeRequestIid } from './merge-requests.js'

export const listMergeRequestDiffs = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/diffs', summary: 'The changed files of a merge request with their diffs, paginated',
  paginated: true, params: MergeRequestIid, input: { unidiff: bool().optional() }, responses: { 200: z.array(DiffEntry) },
})

export const getMergeRequestRawDiffs = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/merge_requests/:merge_request_iid/raw_diffs', summary: 'The diff of a merge request as one plain-text patch',
  raw: true, params: MergeRequestIid, responses: { 200: null },
})

export const compareRefs = defineEndpoint({
  method: 'GET', auth: 'optional', path: '/projects/:id/repository/compare', summary: 'Compare two branches, tags or commits (`from...to` through the merge base, `from..to` with straight)',
  params: { id: ref() },
  input: { from: str(1024), to: str(1024), from_project_id: int().optional(), straight: bool().optional(), unidiff: bool().optional() },
  responses: { 200: Compare },
})
