// The table of each search scope: what identifies a hit and what a reader scans for.
import type { Column } from '../../src/cli/output.js'
import type { IO } from '../../src/cli/io.js'
import { stateStyle } from '../../src/cli/terminal.js'

type Hit = Record<string, any>

/** `group/project#1` or `group/project!1`, from the reference GitLab gives or else the web URL. */
function reference(hit: Hit): string {
  if (hit.references?.full) return hit.references.full
  const m = /^https?:\/\/[^/]+\/(.+)\/-\/(issues|merge_requests)\/(\d+)$/.exec(String(hit.web_url ?? ''))
  return m ? `${m[1]}${m[2] === 'issues' ? '#' : '!'}${m[3]}` : String(hit.iid ?? '')
}

const firstLine = (text: unknown) => String(text ?? '').split('\n', 1)[0]

/** The line of a chunk holding the query (case-insensitive), else its first line, with its number. */
function matchLine(hit: Hit, query: string): { line: number; text: string } {
  const lines = String(hit.data ?? '').replace(/\n$/, '').split('\n')
  const at = Math.max(0, lines.findIndex((l) => l.toLowerCase().includes(query.toLowerCase())))
  return { line: Number(hit.startline) + at, text: lines[at] ?? '' }
}

export function searchColumns(io: IO, scope: string, query: string): Column<Hit>[] {
  const state: Column<Hit> = { header: 'STATE', value: (h) => h.state, style: (t) => stateStyle(io, t) }
  switch (scope) {
    case 'projects': return [{ header: 'ID', value: (h) => h.id }, { header: 'PATH', value: (h) => h.path_with_namespace }, { header: 'DESCRIPTION', value: (h) => h.description, flex: true }]
    case 'issues': case 'merge_requests':
      return [{ header: 'REFERENCE', value: reference }, { header: 'TITLE', value: (h) => h.title, flex: true }, state]
    case 'milestones': return [{ header: 'ID', value: (h) => h.id }, { header: 'TITLE', value: (h) => h.title, flex: true }, state]
    case 'notes': return [{ header: 'ID', value: (h) => h.id }, { header: 'ON', value: (h) => `${h.noteable_type} ${h.noteable_iid}` }, { header: 'BODY', value: (h) => firstLine(h.body), flex: true }]
    case 'commits': return [{ header: 'SHA', value: (h) => h.short_id }, { header: 'TITLE', value: (h) => h.title, flex: true }, { header: 'AUTHOR', value: (h) => h.author_name }]
    case 'blobs': case 'wiki_blobs':
      return [{ header: 'FILE', value: (h) => `${h.path}:${matchLine(h, query).line}` }, { header: 'TEXT', value: (h) => matchLine(h, query).text, flex: true }]
    case 'snippet_titles': return [{ header: 'ID', value: (h) => h.id }, { header: 'TITLE', value: (h) => h.title, flex: true }, { header: 'VISIBILITY', value: (h) => h.visibility }]
    case 'users': return [{ header: 'ID', value: (h) => h.id }, { header: 'USERNAME', value: (h) => h.username }, { header: 'NAME', value: (h) => h.name, flex: true }]
    default: return [{ header: 'ID', value: (h) => h.id }]
  }
}

export const SCOPE_NOUNS: Record<string, string> = {
  projects: 'projects', issues: 'issues', merge_requests: 'merge requests', milestones: 'milestones', notes: 'notes', commits: 'commits',
  blobs: 'code matches', wiki_blobs: 'wiki matches', snippet_titles: 'snippets', users: 'users',
}
