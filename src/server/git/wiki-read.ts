// Reading wiki pages fast: the page list of the default branch kept until the wiki changes, a page's API answer kept by
// blob id and path (neither ever changes meaning), and many blobs read by one `git cat-file --batch`.
import { ByteCache } from '../../core/byte-cache.js'
import { spawn } from 'node:child_process'
import { gitChildEnv } from '../../core/child-env.js'
import { gitAvailable, gitOutputLimit, GitOutputTooLarge } from './exec.js'
import { cacheFor, readBlob } from './read.js'
import { findPageFile, listPageFiles, wikiCommit, type WikiPageFile } from './wiki.js'

interface Snapshot { head: string | null; pages: WikiPageFile[]; exact: Map<string, WikiPageFile>; folded: Map<string, WikiPageFile> }

// Keyed by isomorphic-git's cache object of the repository: forgetCache (after a push, a deletion) drops both at once.
const snapshots = new WeakMap<object, Snapshot>()
// Bumped by every change, so a snapshot read while a change landed is never kept.
const generations = new Map<string, number>()

/** Called under the repository lock after the wiki's refs moved through the API. */
export function forgetWikiSnapshot(gitdir: string) {
  generations.set(gitdir, (generations.get(gitdir) ?? 0) + 1)
  snapshots.delete(cacheFor(gitdir))
}

async function snapshot(gitdir: string): Promise<Snapshot> {
  const cache = cacheFor(gitdir)
  const known = snapshots.get(cache)
  if (known) return known
  const generation = generations.get(gitdir) ?? 0
  const head = await wikiCommit(gitdir)
  const pages = await listPageFiles(gitdir, head)
  const made: Snapshot = { head, pages, exact: new Map(), folded: new Map() }
  for (const page of pages) {
    if (!made.exact.has(page.slug)) made.exact.set(page.slug, page)
    if (!made.folded.has(page.slug.toLowerCase())) made.folded.set(page.slug.toLowerCase(), page)
  }
  if (generation === (generations.get(gitdir) ?? 0) && cacheFor(gitdir) === cache) snapshots.set(cache, made)
  return made
}

/** The pages of the default branch, sorted by path. */
export const currentPages = async (gitdir: string) => (await snapshot(gitdir)).pages

/**
 * A page by slug, exact spelling first, then ignoring case, then the slug a title would have (`Getting started`
 * finds `Getting-started`, as GitLab's find_page tries the title too); at `version` (a commit) when given.
 */
export async function findWikiPage(gitdir: string, slug: string, version?: string): Promise<WikiPageFile | null> {
  // Only Gollum's cname: resolving `..` here would let `../Home` name a page.
  const asTitle = () => slug.trim().replace(/[\s<>+]/g, '-')
  if (version !== undefined) {
    const commit = await wikiCommit(gitdir, version)
    const page = await findPageFile(gitdir, commit, slug)
    if (page) return page
    const title = asTitle()
    return title !== slug ? findPageFile(gitdir, commit, title) : null
  }
  const s = await snapshot(gitdir)
  const page = s.exact.get(slug) ?? s.folded.get(slug.toLowerCase())
  if (page) return page
  const title = asTitle()
  return title !== slug ? s.exact.get(title) ?? s.folded.get(title.toLowerCase()) ?? null : null
}

/** One page's text (a small blob comes from the cat-file pool's object cache when it was read before). */
export const readPageText = async (gitdir: string, page: WikiPageFile): Promise<string> => (await readBlob(gitdir, page.oid)).toString('utf8')

/**
 * A page's answer as the API gives it, by blob id and path: both are immutable (the path fixes slug, title and format,
 * the blob the content), so an entry is never stale and a page changed by an edit or a push is simply another key,
 * found through the page list, which every change forgets. 32 MiB of text, none over 2 MiB, least recently used out.
 */
const answers = new ByteCache<string>(32 * 1024 * 1024, 2 * 1024 * 1024, (text) => text.length)

/**
 * The page's answer from `render(page, text)`, kept for the next read of the same file. One rendering only: the
 * key does not name the renderer, so every caller must pass a render that gives the same text for the same page.
 */
export async function pageAnswer(gitdir: string, page: WikiPageFile, render: (page: WikiPageFile, text: string) => string): Promise<string> {
  const key = `${page.oid}\0${page.path}`
  const known = answers.get(key)
  if (known !== undefined) return known
  const answer = render(page, await readPageText(gitdir, page))
  answers.set(key, answer)
  return answer
}

/**
 * Every page's text read from the repository (no cache: a list `with_content` shows what git holds now), by one
 * `git cat-file --batch` when git is there, else in-process.
 */
export async function readPageTexts(gitdir: string, pages: WikiPageFile[]): Promise<string[]> {
  if (pages.length < 8 || !(await gitAvailable())) return Promise.all(pages.map(async (p) => (await readBlob(gitdir, p.oid)).toString('utf8')))
  const blobs = await catFileBatch(gitdir, pages.map((p) => p.oid))
  return pages.map((p) => blobs.get(p.oid)!.toString('utf8'))
}

/** `git cat-file --batch` over the ids: `<oid> <type> <size>\n<bytes>\n` each, parsed by byte counts. */
function catFileBatch(gitdir: string, oids: string[]): Promise<Map<string, Buffer>> {
  const limit = gitOutputLimit()
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitdir, 'cat-file', '--batch'], { env: gitChildEnv({ LC_ALL: 'C' }), stdio: ['pipe', 'pipe', 'ignore'] })
    const chunks: Buffer[] = []
    let size = 0
    child.stdout.on('data', (c: Buffer) => {
      if ((size += c.length) > limit) child.kill()
      else chunks.push(c)
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (size > limit) return reject(new GitOutputTooLarge(['cat-file', '--batch'], limit))
      if (code !== 0) return reject(new Error(`git cat-file --batch exited with ${code}`))
      resolve(parseBatch(Buffer.concat(chunks)))
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(`${oids.join('\n')}\n`)
  })
}

function parseBatch(out: Buffer): Map<string, Buffer> {
  const blobs = new Map<string, Buffer>()
  let at = 0
  while (at < out.length) {
    const eol = out.indexOf(10, at)
    if (eol < 0) break
    const [oid, type, size] = out.subarray(at, eol).toString('latin1').split(' ')
    at = eol + 1
    if (type === 'missing' || size === undefined) continue
    const end = at + Number(size)
    blobs.set(oid, out.subarray(at, end))
    at = end + 1
  }
  return blobs
}
