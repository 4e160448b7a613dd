// git's object formats read into the git layer's plain data: commits, trees and annotated tags as `git cat-file` gives them.
import { formatGitDate } from './dates.js'
import type { CommitInfo, TreeItem } from './types.js'

export interface Signature { name: string; email: string; timestamp: number; offsetMinutesEast: number }

/** `Name <email> 1700000000 +0100`, split as git's split_ident_line does: the name ends at the first `<`. */
export function parseSignature(line: string): Signature {
  const m = /^(.*?) ?<([^>]*)>\s*(\d+)?\s*([+-])?(\d\d)?(\d\d)?/.exec(line)
  if (!m) return { name: line, email: '', timestamp: 0, offsetMinutesEast: 0 }
  const minutes = Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0)
  return { name: m[1], email: m[2], timestamp: Number(m[3] ?? 0), offsetMinutesEast: m[4] === '-' ? -minutes : minutes }
}

/** The header lines of a commit or tag (continuation lines, as a signature's, joined) and the message after them. */
function split(raw: Buffer): { headers: [string, string][]; message: string } {
  const text = raw.toString('utf8')
  const end = text.indexOf('\n\n')
  const head = end < 0 ? text : text.slice(0, end)
  const headers: [string, string][] = []
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1][1] += `\n${line.slice(1)}`
    else {
      const sp = line.indexOf(' ')
      headers.push(sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)])
    }
  }
  return { headers, message: end < 0 ? '' : text.slice(end + 2) }
}

const header = (headers: [string, string][], name: string) => headers.find(([k]) => k === name)?.[1]

export interface ParsedCommit { tree: string; parents: string[]; author: Signature; committer: Signature; message: string; gpgsig?: string }

export function parseCommit(raw: Buffer): ParsedCommit {
  const { headers, message } = split(raw)
  return {
    tree: header(headers, 'tree') ?? '',
    parents: headers.filter(([k]) => k === 'parent').map(([, v]) => v),
    author: parseSignature(header(headers, 'author') ?? ''),
    committer: parseSignature(header(headers, 'committer') ?? ''),
    message,
    gpgsig: header(headers, 'gpgsig'),
  }
}

export const date = (s: Signature) => formatGitDate(s.timestamp, s.offsetMinutesEast)

/** A commit as the services see it; the message as stored (trailers read from it). */
export function commitInfo(oid: string, raw: Buffer, trailers: (message: string) => [string, string][]): CommitInfo {
  const c = parseCommit(raw)
  return {
    id: oid,
    parents: c.parents,
    message: c.message,
    authorName: c.author.name,
    authorEmail: c.author.email,
    authoredDate: date(c.author),
    committerName: c.committer.name,
    committerEmail: c.committer.email,
    committedDate: date(c.committer),
    trailers: trailers(c.message),
  }
}

export interface ParsedTag { object: string; type: string; tag: string; tagger: Signature | null; message: string }

/** An annotated tag; its message without the signature git appends to signed tags. */
export function parseTag(raw: Buffer): ParsedTag {
  const text = `${raw.toString('utf8').replace(/\r/g, '').replace(/\n+$/, '')}\n`
  const signature = text.lastIndexOf('\n-----BEGIN PGP SIGNATURE-----')
  const { headers, message } = split(Buffer.from(signature < 0 ? text : text.slice(0, signature + 1)))
  const tagger = header(headers, 'tagger')
  return { object: header(headers, 'object') ?? '', type: header(headers, 'type') ?? '', tag: header(headers, 'tag') ?? '', tagger: tagger === undefined ? null : parseSignature(tagger), message }
}

/** A tree entry's mode as git writes it in listings (`040000`, `100644`, `100755`, `120000`, `160000`). */
function normalizeMode(mode: string): { mode: string; type: TreeItem['type'] } {
  const n = parseInt(mode, 8)
  if ((n & 0o170000) === 0o040000) return { mode: '040000', type: 'tree' }
  if ((n & 0o170000) === 0o160000) return { mode: '160000', type: 'commit' }
  if ((n & 0o170000) === 0o120000) return { mode: '120000', type: 'blob' }
  return { mode: n & 0o111 ? '100755' : '100644', type: 'blob' }
}

/** A tree's entries in git's order (the order they are stored in), paths under `base`. */
export function parseTree(raw: Buffer, base: string): TreeItem[] {
  const out: TreeItem[] = []
  let i = 0
  while (i < raw.length) {
    const space = raw.indexOf(32, i)
    const nul = raw.indexOf(0, space + 1)
    if (space < 0 || nul < 0 || nul + 21 > raw.length) break
    const { mode, type } = normalizeMode(raw.toString('latin1', i, space))
    const name = raw.toString('utf8', space + 1, nul)
    const oid = raw.toString('hex', nul + 1, nul + 21)
    out.push({ oid, name, path: base ? `${base}/${name}` : name, type, mode })
    i = nul + 21
  }
  return out
}
