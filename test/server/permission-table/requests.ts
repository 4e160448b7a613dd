// The one request per resource kind and operation that a cell of the permission table sends, and the status it answers
// when allowed.
import { request, type RequestOptions } from '../../helpers/api.js'
import type { Op, Resource } from './table.js'
import type { Credential, Seeded, World } from './world.js'

interface Call { method: string; path: string; json?: unknown }
type Build = (p: Seeded, unique: string) => Call

const at = (p: Seeded) => `/api/v4/projects/${p.id}`
const get = (path: (p: Seeded) => string): Build => (p) => ({ method: 'GET', path: `${at(p)}${path(p)}` })
const send = (method: string, path: (p: Seeded) => string, json: (unique: string) => unknown): Build =>
  (p, unique) => ({ method, path: `${at(p)}${path(p)}`, json: json(unique) })
// Git's first request of a clone or a push: the refs advertisement, where both check access.
const refs = (service: string): Build => (p) => ({ method: 'GET', path: `/${p.path}.git/info/refs?service=${service}` })

const CALLS: Record<Resource, Partial<Record<Op, [Build, number]>>> = {
  project: { read: [get(() => ''), 200], write: [send('PUT', () => '', (u) => ({ description: u })), 200] },
  repository: {
    read: [get(() => '/repository/files/README.md/raw?ref=main'), 200],
    write: [send('POST', () => '/repository/branches', (u) => ({ branch: u, ref: 'main' })), 201],
  },
  tree: { read: [get(() => '/repository/tree'), 200] },
  clone: { read: [refs('git-upload-pack'), 200], write: [refs('git-receive-pack'), 200] },
  issue: { read: [get((p) => `/issues/${p.issueIid}`), 200], write: [send('POST', () => '/issues', (u) => ({ title: u })), 201] },
  'confidential-issue': {
    read: [get((p) => `/issues/${p.confidentialIid}`), 200],
    write: [send('PUT', (p) => `/issues/${p.confidentialIid}`, (u) => ({ description: u })), 200],
  },
  'merge-request': {
    read: [get((p) => `/merge_requests/${p.mrIid}`), 200],
    write: [send('PUT', (p) => `/merge_requests/${p.mrIid}`, (u) => ({ description: u })), 200],
  },
  'merge-request-list': { read: [get(() => '/merge_requests'), 200] },
  pipeline: { read: [get((p) => `/pipelines/${p.pipelineId}`), 200], write: [send('POST', () => '/pipeline', () => ({ ref: 'feature' })), 201] },
  'job-log': { read: [get((p) => `/jobs/${p.jobId}/trace`), 200] },
  artifact: {
    read: [get((p) => `/jobs/${p.jobId}/artifacts`), 200],
    write: [send('POST', (p) => `/jobs/${p.jobId}/artifacts/keep`, () => ({})), 200],
  },
  snippet: {
    read: [get((p) => `/snippets/${p.snippetId}`), 200],
    write: [send('POST', () => '/snippets', (u) => ({ title: u, file_name: 'a.txt', content: 'a', visibility: 'private' })), 201],
  },
  wiki: { read: [get((p) => `/wikis/${p.wikiSlug}`), 200], write: [send('PUT', (p) => `/wikis/${p.wikiSlug}`, (u) => ({ content: u })), 200] },
  variable: {
    read: [get((p) => `/variables/${p.variableKey}`), 200],
    write: [send('PUT', (p) => `/variables/${p.variableKey}`, () => ({ value: 'hunter22' })), 200],
  },
  hook: {
    read: [get((p) => `/hooks/${p.hookId}`), 200],
    write: [send('PUT', (p) => `/hooks/${p.hookId}`, () => ({ url: 'http://127.0.0.1:9/hook' })), 200],
  },
  release: { read: [get(() => '/releases'), 200], write: [send('POST', () => '/releases', (u) => ({ tag_name: u, ref: 'main' })), 201] },
  package: {
    read: [get(() => '/packages'), 200],
    write: [(p, unique) => ({ method: 'PUT', path: `${at(p)}/packages/generic/perm/1.0/${unique}.txt`, json: { unique } }), 201],
  },
  members: { read: [get(() => '/members'), 200], write: [send('PUT', (p) => `/members/${p.memberId}`, () => ({ access_level: 10 })), 200] },
}

/** The status a request answers when the caller may make it. */
export const successOf = (resource: Resource, op: Op) => CALLS[resource][op]![1]

// Git sends Basic credentials (any user name with a token, gitlab-ci-token with a job token); the API, token headers.
function headersFor(credential: Credential, git: boolean): Record<string, string> {
  if (credential.kind === 'anonymous') return {}
  if (git) {
    const login = credential.kind === 'job' ? 'gitlab-ci-token' : 'oauth2'
    return { Authorization: `Basic ${Buffer.from(`${login}:${credential.token}`).toString('base64')}` }
  }
  return credential.kind === 'job' ? { 'JOB-TOKEN': credential.token } : { 'PRIVATE-TOKEN': credential.token }
}

let made = 0

/** Sends a cell's request; writes get a name of their own, so no cell depends on another's write. */
export async function sendCell(world: World, resource: Resource, op: Op, project: Seeded, credential: Credential) {
  const call = CALLS[resource][op]![0](project, `perm-${++made}`)
  const opts: RequestOptions = { headers: headersFor(credential, resource === 'clone'), ...(call.json !== undefined ? { json: call.json } : {}) }
  return request(world.server, call.method, call.path, opts)
}
