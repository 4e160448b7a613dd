// GET /api/v4/openapi.json covers the whole contract, and a snapshot pins the public surface (every METHOD path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint } from '../../src/contract/define.js'
import { contract } from '../../src/contract/index.js'
import { api } from '../helpers/api.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

let server: TestServer
let doc: any

const endpoints = Object.entries(contract).flatMap(([tag, group]) =>
  Object.entries(group as Record<string, Endpoint>).map(([name, e]) => ({ tag, name, e })))
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

beforeAll(async () => {
  server = await startTestServer()
  const res = await api(server).get('/openapi.json')
  expect(res.status).toBe(200)
  doc = res.body
})
afterAll(() => server.close())

describe('GET /api/v4/openapi.json', () => {
  it('is an OpenAPI 3.1 document served to anonymous callers, for this server', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.servers).toEqual([{ url: server.api }])
    expect(doc.components.securitySchemes).toEqual({
      privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
      bearer: { type: 'http', scheme: 'bearer' },
    })
  })

  it('describes every endpoint of the contract, and nothing else', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)).sort()
    const declared = endpoints.map(({ e }) => `${e.method} ${openApiPath(e.path)}`).sort()
    expect(documented).toEqual(declared)
  })

  it.each(endpoints.map(({ tag, name, e }) => [`${e.method} ${e.path}`, tag, name, e] as const))(
    'documents %s with its operationId, path parameters and responses',
    (_label, tag, name, e) => {
      const op = doc.paths[openApiPath(e.path)][e.method.toLowerCase()]
      expect(op.operationId).toBe(name)
      expect(op.tags).toEqual([tag])
      expect(op.summary).toBe(e.summary)
      expect(op['x-auth']).toBe(e.auth)
      const pathParams = (e.path.match(/:(\w+)/g) ?? []).map((p) => p.slice(1))
      expect(op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name)).toEqual(pathParams)
      expect(Object.keys(op.responses).sort()).toEqual(Object.keys(e.responses).sort())
    },
  )

  it('marks required body fields as required', () => {
    const create = doc.paths['/groups'].post
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name', 'path'])
    const members = doc.paths['/projects/{id}/members'].post.requestBody.content['application/json'].schema.required
    expect(members).toEqual(['user_id', 'access_level'])
  })

  it('answers the same document on every request', async () => {
    const again = await api(server).get('/openapi.json')
    expect(again.body).toEqual(doc)
  })
})

describe('the public surface', () => {
  it('has no endpoint declared twice', () => {
    const keys = endpoints.map(({ e }) => `${e.method} ${e.path}`)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('is exactly this list of METHOD path (update deliberately when the API grows)', () => {
    const surface = endpoints.map(({ e }) => `${e.method} ${e.path}`).sort()
    expect(surface).toMatchInlineSnapshot(`
      [
        "DELETE /groups/:id/custom_attributes/:key",
        "DELETE /groups/:id/members/:user_id",
        "DELETE /personal_access_tokens/:token_id",
        "DELETE /personal_access_tokens/self",
        "DELETE /projects/:id",
        "DELETE /projects/:id/custom_attributes/:key",
        "DELETE /projects/:id/issues/:issue_iid",
        "DELETE /projects/:id/issues/:issue_iid/notes/:note_id",
        "DELETE /projects/:id/labels",
        "DELETE /projects/:id/labels/:label_id",
        "DELETE /projects/:id/members/:user_id",
        "DELETE /projects/:id/merge_requests/:merge_request_iid",
        "DELETE /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id",
        "DELETE /projects/:id/merge_requests/:merge_request_iid/notes/:note_id",
        "DELETE /projects/:id/milestones/:milestone_id",
        "DELETE /projects/:id/protected_branches/:name",
        "DELETE /projects/:id/repository/branches/:branch",
        "DELETE /projects/:id/repository/files/:file_path",
        "DELETE /projects/:id/repository/tags/:tag_name",
        "DELETE /users/:id/custom_attributes/:key",
        "DELETE /users/:id/impersonation_tokens/:token_id",
        "GET /application/settings",
        "GET /groups",
        "GET /groups/:id",
        "GET /groups/:id/custom_attributes",
        "GET /groups/:id/custom_attributes/:key",
        "GET /groups/:id/issues",
        "GET /groups/:id/members",
        "GET /groups/:id/members/:user_id",
        "GET /groups/:id/members/all",
        "GET /groups/:id/members/all/:user_id",
        "GET /groups/:id/merge_requests",
        "GET /issues",
        "GET /merge_requests",
        "GET /metadata",
        "GET /namespaces",
        "GET /namespaces/:id",
        "GET /openapi.json",
        "GET /personal_access_tokens",
        "GET /personal_access_tokens/self",
        "GET /projects",
        "GET /projects/:id",
        "GET /projects/:id/custom_attributes",
        "GET /projects/:id/custom_attributes/:key",
        "GET /projects/:id/forks",
        "GET /projects/:id/issues",
        "GET /projects/:id/issues/:issue_iid",
        "GET /projects/:id/issues/:issue_iid/closed_by",
        "GET /projects/:id/issues/:issue_iid/notes",
        "GET /projects/:id/issues/:issue_iid/notes/:note_id",
        "GET /projects/:id/issues/:issue_iid/participants",
        "GET /projects/:id/issues/:issue_iid/time_stats",
        "GET /projects/:id/issues/:issue_iid/user_agent_detail",
        "GET /projects/:id/labels",
        "GET /projects/:id/labels/:label_id",
        "GET /projects/:id/languages",
        "GET /projects/:id/members",
        "GET /projects/:id/members/:user_id",
        "GET /projects/:id/members/all",
        "GET /projects/:id/members/all/:user_id",
        "GET /projects/:id/merge_requests",
        "GET /projects/:id/merge_requests/:merge_request_iid",
        "GET /projects/:id/merge_requests/:merge_request_iid/approvals",
        "GET /projects/:id/merge_requests/:merge_request_iid/award_emoji",
        "GET /projects/:id/merge_requests/:merge_request_iid/award_emoji/:award_id",
        "GET /projects/:id/merge_requests/:merge_request_iid/changes",
        "GET /projects/:id/merge_requests/:merge_request_iid/closes_issues",
        "GET /projects/:id/merge_requests/:merge_request_iid/commits",
        "GET /projects/:id/merge_requests/:merge_request_iid/notes",
        "GET /projects/:id/merge_requests/:merge_request_iid/notes/:note_id",
        "GET /projects/:id/merge_requests/:merge_request_iid/participants",
        "GET /projects/:id/merge_requests/:merge_request_iid/pipelines",
        "GET /projects/:id/merge_requests/:merge_request_iid/time_stats",
        "GET /projects/:id/milestones",
        "GET /projects/:id/milestones/:milestone_id",
        "GET /projects/:id/milestones/:milestone_id/issues",
        "GET /projects/:id/protected_branches",
        "GET /projects/:id/protected_branches/:name",
        "GET /projects/:id/repository/branches",
        "GET /projects/:id/repository/branches/:branch",
        "GET /projects/:id/repository/commits",
        "GET /projects/:id/repository/commits/:sha",
        "GET /projects/:id/repository/commits/:sha/comments",
        "GET /projects/:id/repository/commits/:sha/diff",
        "GET /projects/:id/repository/commits/:sha/merge_requests",
        "GET /projects/:id/repository/commits/:sha/refs",
        "GET /projects/:id/repository/commits/:sha/statuses",
        "GET /projects/:id/repository/files/:file_path",
        "GET /projects/:id/repository/files/:file_path/raw",
        "GET /projects/:id/repository/tags",
        "GET /projects/:id/repository/tags/:tag_name",
        "GET /projects/:id/repository/tree",
        "GET /projects/:id/repository_check",
        "GET /projects/:id/starrers",
        "GET /projects/:id/users",
        "GET /todos",
        "GET /user",
        "GET /users",
        "GET /users/:id",
        "GET /users/:id/custom_attributes",
        "GET /users/:id/custom_attributes/:key",
        "GET /users/:id/impersonation_tokens",
        "GET /users/:user_id/projects",
        "GET /users/:user_id/starred_projects",
        "GET /version",
        "PATCH /projects/:id/protected_branches/:name",
        "POST /groups",
        "POST /groups/:id/members",
        "POST /projects",
        "POST /projects/:id/archive",
        "POST /projects/:id/fork",
        "POST /projects/:id/issues",
        "POST /projects/:id/issues/:issue_iid/add_spent_time",
        "POST /projects/:id/issues/:issue_iid/move",
        "POST /projects/:id/issues/:issue_iid/notes",
        "POST /projects/:id/issues/:issue_iid/reset_spent_time",
        "POST /projects/:id/issues/:issue_iid/reset_time_estimate",
        "POST /projects/:id/issues/:issue_iid/subscribe",
        "POST /projects/:id/issues/:issue_iid/time_estimate",
        "POST /projects/:id/issues/:issue_iid/todo",
        "POST /projects/:id/issues/:issue_iid/unsubscribe",
        "POST /projects/:id/labels",
        "POST /projects/:id/members",
        "POST /projects/:id/merge_requests",
        "POST /projects/:id/merge_requests/:merge_request_iid/add_spent_time",
        "POST /projects/:id/merge_requests/:merge_request_iid/approve",
        "POST /projects/:id/merge_requests/:merge_request_iid/award_emoji",
        "POST /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds",
        "POST /projects/:id/merge_requests/:merge_request_iid/notes",
        "POST /projects/:id/merge_requests/:merge_request_iid/reset_spent_time",
        "POST /projects/:id/merge_requests/:merge_request_iid/reset_time_estimate",
        "POST /projects/:id/merge_requests/:merge_request_iid/subscribe",
        "POST /projects/:id/merge_requests/:merge_request_iid/time_estimate",
        "POST /projects/:id/merge_requests/:merge_request_iid/todo",
        "POST /projects/:id/merge_requests/:merge_request_iid/unapprove",
        "POST /projects/:id/merge_requests/:merge_request_iid/unsubscribe",
        "POST /projects/:id/milestones",
        "POST /projects/:id/protected_branches",
        "POST /projects/:id/repository/branches",
        "POST /projects/:id/repository/commits",
        "POST /projects/:id/repository/commits/:sha/cherry_pick",
        "POST /projects/:id/repository/commits/:sha/comments",
        "POST /projects/:id/repository/files/:file_path",
        "POST /projects/:id/repository/tags",
        "POST /projects/:id/repository_check",
        "POST /projects/:id/star",
        "POST /projects/:id/statuses/:sha",
        "POST /projects/:id/unarchive",
        "POST /projects/:id/unstar",
        "POST /projects/user/:user_id",
        "POST /todos/:id/mark_as_done",
        "POST /todos/mark_as_done",
        "POST /users",
        "POST /users/:id/impersonation_tokens",
        "POST /users/:id/personal_access_tokens",
        "PUT /application/settings",
        "PUT /groups/:id/custom_attributes/:key",
        "PUT /groups/:id/members/:user_id",
        "PUT /projects/:id",
        "PUT /projects/:id/custom_attributes/:key",
        "PUT /projects/:id/issues/:issue_iid",
        "PUT /projects/:id/issues/:issue_iid/notes/:note_id",
        "PUT /projects/:id/labels",
        "PUT /projects/:id/labels/:label_id",
        "PUT /projects/:id/members/:user_id",
        "PUT /projects/:id/merge_requests/:merge_request_iid",
        "PUT /projects/:id/merge_requests/:merge_request_iid/cancel_merge_when_pipeline_succeeds",
        "PUT /projects/:id/merge_requests/:merge_request_iid/merge",
        "PUT /projects/:id/merge_requests/:merge_request_iid/notes/:note_id",
        "PUT /projects/:id/merge_requests/:merge_request_iid/rebase",
        "PUT /projects/:id/merge_requests/:merge_request_iid/reset_approvals",
        "PUT /projects/:id/milestones/:milestone_id",
        "PUT /projects/:id/repository/branches/:branch/protect",
        "PUT /projects/:id/repository/branches/:branch/unprotect",
        "PUT /projects/:id/repository/files/:file_path",
        "PUT /users/:id/custom_attributes/:key",
      ]
    `)
  })
})
