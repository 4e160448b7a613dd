// Walks the contract: every GET endpoint whose answer can carry a web_url (or a target_url, html_url or _links into
// the UI), its path parameters filled from the seeded world (a parameter no world value names is read from the list
// endpoint before it), called as the owner; every page address found in the answers is collected.
import { z } from 'zod'
import { contract } from '../../../src/contract/index.js'
import type { Endpoint } from '../../../src/contract/define.js'
import type { QueryValue } from '../../helpers/api.js'
import { HOSTILE_REF, type World } from './world.js'

const LINK_KEYS = /"(web_url|target_url|html_url|_links)"/

/** The GET endpoints whose response schema names a page link somewhere (an author's web_url counts). */
export function linkingEndpoints(): Endpoint[] {
  const out: Endpoint[] = []
  for (const group of Object.values(contract)) {
    for (const ep of Object.values(group) as Endpoint[]) {
      if (ep.method !== 'GET' || ep.auth === 'admin' || ep.raw) continue
      const schemas = Object.values(ep.responses).filter((s): s is z.ZodType => s !== null)
      if (schemas.some((s) => LINK_KEYS.test(JSON.stringify(z.toJSONSchema(s, { unrepresentable: 'any' }))))) out.push(ep)
    }
  }
  return out
}

/** What a list item names a parameter by. */
const ITEM_KEY: Record<string, string> = {
  issue_iid: 'iid', merge_request_iid: 'iid', branch: 'name', tag_name: 'name', slug: 'slug', name: 'name', sha: 'id', issue_link_id: 'issue_link_id',
}

function fixedParam(w: World, path: string, name: string): string | undefined {
  const before = path.slice(0, path.indexOf(`:${name}`))
  if (name === 'id') {
    if (before === '/projects/') return String(w.pub.id)
    if (before === '/groups/') return String(w.group.id)
    if (before === '/users/') return String(w.alice.id)
    if (before === '/snippets/') return String(w.personal.id)
    if (before === '/namespaces/') return String(w.group.id)
  }
  if (name === 'user_id') return String(w.alice.id)
  if (name === 'sha') return w.mr.sha
  if (name === 'file_path') return 'README.md'
  if (name === 'ref' || name === 'ref_name' || name === 'branch') return 'main'
  if (name === 'tag_name') return 'v1.0'
  if (name === 'key') return 'mit'
  if (name === 'pipeline_id') return String(w.pipeline.id)
  if (name === 'issue_iid') return String(w.issue.iid)
  if (name === 'merge_request_iid') return String(w.mr.iid)
  if (name === 'note_id' && before.includes('/issues/')) return String(w.issueNote.id)
  if (name === 'note_id' && before.includes('/merge_requests/')) return String(w.mrNote.id)
  if (name === 'snippet_id' && before.startsWith('/projects/')) return String(w.snippet.id)
  return undefined
}

// GitLab CE's search scopes at each level.
const searches = (scopes: string) => scopes.split(' ').map((scope) => ({ scope, search: 'script' }))
/** Endpoints that need a query to answer anything: each is called once per query. */
const QUERIES: Record<string, Record<string, QueryValue>[]> = {
  '/search': searches('projects issues merge_requests milestones snippet_titles users'),
  '/groups/:id/search': searches('projects issues merge_requests milestones users'),
  '/projects/:id/search': searches('issues merge_requests milestones notes commits blobs wiki_blobs users'),
  '/projects/:id/repository/merge_base': [{ 'refs[]': ['main', 'topic'] }],
  '/projects/:id/repository/compare': [{ from: 'main', to: 'topic' }],
  // Statuses are of the default branch unless a ref is named; the walk's commit is the merge request's head.
  '/projects/:id/repository/commits/:sha/statuses': [{ ref: HOSTILE_REF }],
}
/** Only a running job's token reads /job. */
const UNREACHABLE = new Set(['/job'])

export interface Walk { urls: Set<string>; raw: Set<string>; called: string[]; skipped: string[]; empty: string[] }

/** Calls every linking endpoint as alice and gathers the page addresses of its answers (no API or foreign ones). */
export async function collectWebUrls(w: World): Promise<Walk> {
  const walk: Walk = { urls: new Set(), raw: new Set(), called: [], skipped: [], empty: [] }
  let lastStatus = 0
  const get = async (path: string, query: Record<string, QueryValue> = {}) => {
    const res = await w.alice.api.get(path, { query: { per_page: 100, ...query } })
    lastStatus = res.status
    return res.status === 200 ? res.body : undefined
  }
  for (const ep of linkingEndpoints()) {
    if (UNREACHABLE.has(ep.path)) continue
    let path = ep.path
    for (const name of Object.keys(ep.params ?? {})) {
      let value = fixedParam(w, ep.path, name)
      if (value === undefined) {
        const list = await get(path.slice(0, path.indexOf(`/:${name}`)))
        const first = Array.isArray(list) ? list[0] : undefined
        value = first?.[ITEM_KEY[name] ?? 'id'] === undefined ? undefined : String(first[ITEM_KEY[name] ?? 'id'])
      }
      if (value === undefined) break
      path = path.replace(`:${name}`, encodeURIComponent(value))
    }
    if (path.includes('/:')) { walk.skipped.push(ep.path); continue }
    for (const query of QUERIES[ep.path] ?? [{}]) {
      const body = await get(path, query)
      if (body === undefined) { walk.skipped.push(`${lastStatus} ${ep.path} ${JSON.stringify(query)}`); continue }
      walk.called.push(ep.path)
      if (Array.isArray(body) && body.length === 0) walk.empty.push(ep.path)
      gather(body, false, (key, url) => {
        if (!url.startsWith(w.server.url + '/') || url.startsWith(w.server.api)) return
        if (key === 'raw_url') walk.raw.add(url)
        else walk.urls.add(url)
      })
    }
  }
  return walk
}

/** Page links (web_url, target_url, html_url, anything under _links) and raw_url, the file a snippet's page links to. */
function gather(value: unknown, inLinks: boolean, add: (key: string, url: string) => void) {
  if (Array.isArray(value)) return value.forEach((v) => gather(v, inLinks, add))
  if (!value || typeof value !== 'object') return
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && (inLinks || ['web_url', 'target_url', 'html_url', 'raw_url'].includes(k))) add(k, v)
    else gather(v, inLinks || k === '_links', add)
  }
}

/** A URL's shape: the server, numbers and hashes replaced, so one line stands for every issue page. */
export function urlShape(w: World, url: string): string {
  return url.slice(w.server.url.length)
    .replace(/\/[0-9a-f]{40}(?=\/|$)/g, '/<sha>')
    .replace(/\/\d+(?=\/|$)/g, '/<n>')
}
