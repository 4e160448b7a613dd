// The Search API (lib/api/search.rb): one scope at a time, instance-wide, in a group or in a project.
import { z } from 'zod'
import { IssueBasic, Milestone, Note } from '../entities/issues.js'
import { MergeRequestBasic } from '../entities/merge-requests.js'
import { Project, ProjectSimple } from '../entities/projects.js'
import { Commit } from '../entities/repository.js'
import { Snippet } from '../entities/snippets.js'
import { UserBasic } from '../entities/users.js'
import { defineEndpoint } from '../define.js'
import { bool, oneOf, ref, str, text } from '../params.js'

/** A blob or wiki_blobs hit: one matching chunk of a file (GitLab's Entities::Blob). */
export const SearchBlob = z.object({
  basename: z.string(), data: z.string(), path: z.string(), filename: z.string(), id: z.null(), ref: z.string(),
  startline: z.number().int(), project_id: z.number().int(),
})

export const SearchResults = z.union([
  z.array(Project), z.array(ProjectSimple), z.array(IssueBasic), z.array(MergeRequestBasic), z.array(Milestone), z.array(Note),
  z.array(Commit), z.array(SearchBlob), z.array(Snippet), z.array(UserBasic),
])

// Scope is checked by the service, which knows which scopes each level allows and answers GitLab's wording.
const Query = {
  scope: str(64), search: text(), state: oneOf(['all', 'opened', 'closed', 'merged'] as const).optional(), confidential: bool().optional(),
  order_by: oneOf(['created_at'] as const).optional(), sort: oneOf(['asc', 'desc'] as const).optional(),
}

export const searchGlobal = defineEndpoint({
  method: 'GET', path: '/search', summary: 'Search the instance', paginated: true, input: Query, responses: { 200: SearchResults },
})

export const searchGroup = defineEndpoint({
  method: 'GET', path: '/groups/:id/search', summary: 'Search in a group', paginated: true, params: { id: ref() }, input: Query,
  responses: { 200: SearchResults },
})

export const searchProject = defineEndpoint({
  method: 'GET', path: '/projects/:id/search', summary: 'Search in a project', paginated: true, params: { id: ref() },
  input: { ...Query, ref: str(1024).optional() }, responses: { 200: SearchResults },
})
