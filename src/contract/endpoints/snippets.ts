// Project snippets and personal snippets (compat-mr-ci-wiki §3): CRUD, raw content, user agent details.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { UserAgentDetail } from '../entities/issues.js'
import { Snippet, SNIPPET_VISIBILITY } from '../entities/snippets.js'
import { int, list, oneOf, ref, str, text } from '../params.js'

const ProjectId = { id: ref() }
const ProjectSnippetId = { id: ref(), snippet_id: int() }
const SnippetId = { id: int() }

/** `files[]` entries: `file_path` and `content` on create; on update also `action` and `previous_path`. */
const SnippetFileInput = z.object({
  file_path: str().optional(),
  previous_path: str().optional(),
  content: text().optional(),
  action: oneOf(['create', 'update', 'delete', 'move']).optional(),
}, { error: 'is invalid' })

/** `content` is today's name, `code` the older one (before late 2019); both are accepted. */
const SnippetFields = {
  description: text().optional(),
  file_name: str().optional(),
  content: text().optional(),
  code: text().optional(),
  files: list(SnippetFileInput).optional(),
}
const visibility = () => oneOf(SNIPPET_VISIBILITY)
// SnippetsHelpers' minimum_update_params, for project and personal snippets.
const UPDATE_AT_LEAST_ONE_OF = ['content', 'description', 'files', 'file_name', 'title', 'visibility']
const UpdateInput = { ...SnippetFields, title: str().optional(), visibility: visibility().optional() }

const RAW_SUMMARY = "A snippet's content (its first file) as text/plain"

export const listProjectSnippets = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets', summary: 'List the snippets of a project the caller may read', paginated: true,
  params: ProjectId, responses: { 200: z.array(Snippet) },
})

export const getProjectSnippet = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id', summary: 'Get a project snippet', auth: 'optional',
  params: ProjectSnippetId, responses: { 200: Snippet },
})

export const createProjectSnippet = defineEndpoint({
  method: 'POST', path: '/projects/:id/snippets', summary: 'Create a project snippet (`file_name` + `content`, or `files[]`)',
  params: ProjectId, input: { ...SnippetFields, title: str(), visibility: visibility() }, responses: { 201: Snippet },
})

export const updateProjectSnippet = defineEndpoint({
  method: 'PUT', path: '/projects/:id/snippets/:snippet_id', summary: 'Update a project snippet',
  params: ProjectSnippetId, input: UpdateInput, atLeastOneOf: UPDATE_AT_LEAST_ONE_OF, responses: { 200: Snippet },
})

export const deleteProjectSnippet = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/snippets/:snippet_id', summary: 'Delete a project snippet (its author or a Maintainer)',
  params: ProjectSnippetId, responses: { 204: null },
})

export const getProjectSnippetRaw = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/raw', summary: RAW_SUMMARY, auth: 'optional', raw: true,
  params: ProjectSnippetId, responses: { 200: z.string() },
})

export const getProjectSnippetFileRaw = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', summary: 'One file of a project snippet as text/plain',
  auth: 'optional', raw: true, params: { ...ProjectSnippetId, ref: str(), file_path: str(1024) }, responses: { 200: z.string() },
})

export const getProjectSnippetUserAgentDetail = defineEndpoint({
  method: 'GET', path: '/projects/:id/snippets/:snippet_id/user_agent_detail', summary: 'User agent and IP that created a project snippet (administrators)',
  auth: 'admin', params: ProjectSnippetId, responses: { 200: UserAgentDetail },
})

export const listSnippets = defineEndpoint({
  method: 'GET', path: '/snippets', summary: "The caller's personal snippets", paginated: true,
  responses: { 200: z.array(Snippet) },
})

export const listPublicSnippets = defineEndpoint({
  method: 'GET', path: '/snippets/public', summary: 'All public personal snippets', paginated: true,
  responses: { 200: z.array(Snippet) },
})

export const listAllSnippets = defineEndpoint({
  method: 'GET', path: '/snippets/all', summary: 'Every snippet the caller may read, personal and project ones (administrators: all)', paginated: true,
  responses: { 200: z.array(Snippet) },
})

export const getSnippet = defineEndpoint({
  method: 'GET', path: '/snippets/:id', summary: 'Get a personal snippet the caller may read', auth: 'optional',
  params: SnippetId, responses: { 200: Snippet },
})

export const createSnippet = defineEndpoint({
  method: 'POST', path: '/snippets', summary: 'Create a personal snippet (visibility defaults to default_snippet_visibility)',
  input: { ...SnippetFields, title: str(), visibility: visibility().optional() }, responses: { 201: Snippet },
})

export const updateSnippet = defineEndpoint({
  method: 'PUT', path: '/snippets/:id', summary: 'Update a personal snippet (its author)',
  params: SnippetId, input: UpdateInput, atLeastOneOf: UPDATE_AT_LEAST_ONE_OF, responses: { 200: Snippet },
})

export const deleteSnippet = defineEndpoint({
  method: 'DELETE', path: '/snippets/:id', summary: 'Delete a personal snippet (its author)',
  params: SnippetId, responses: { 204: null },
})

export const getSnippetRaw = defineEndpoint({
  method: 'GET', path: '/snippets/:id/raw', summary: RAW_SUMMARY, auth: 'optional', raw: true,
  params: SnippetId, responses: { 200: z.string() },
})

export const getSnippetFileRaw = defineEndpoint({
  method: 'GET', path: '/snippets/:id/files/:ref/:file_path/raw', summary: 'One file of a personal snippet as text/plain',
  auth: 'optional', raw: true, params: { ...SnippetId, ref: str(), file_path: str(1024) }, responses: { 200: z.string() },
})

export const getSnippetUserAgentDetail = defineEndpoint({
  method: 'GET', path: '/snippets/:id/user_agent_detail', summary: 'User agent and IP that created a snippet (administrators)',
  auth: 'admin', params: SnippetId, responses: { 200: UserAgentDetail },
})
