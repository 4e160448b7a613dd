// A project's wiki repository: pages as files on the default branch, read in-process and changed by one commit each.
import fs from 'node:fs'
import { stat } from 'node:fs/promises'
import { join, normalize, sep } from 'node:path'
import * as git from './iso.js'
import { treeOf } from './commit-read.js'
import { gitAvailable, runGit } from './exec.js'
import { withRepoLock } from './lock.js'
import { readRef, readTreeItems, resolveCommit } from './read.js'
import { initRepository } from './repository.js'
import { TreeEditor } from './tree-edit.js'
import { pageOfPath, type PagePath } from './wiki-paths.js'
import { moveRef, type Signature } from './write.js'

let plainRoot: string | undefined

/**
 * `<root>/<id>.wiki.git`. Every wiki read asks for it, and join's normalizing cost more than the rest of a cached page
 * read: a root that is already normal (the server's always is) is only checked once.
 */
export function wikiDir(root: string, projectId: number): string {
  if (root !== plainRoot) {
    if (root.endsWith(sep) || normalize(root) !== root) return join(root, `${projectId}.wiki.git`)
    plainRoot = root
  }
  return `${root}${sep}${projectId}.wiki.git`
}

export interface WikiPageFile extends PagePath { oid: string }

const exists = (dir: string) => stat(join(dir, 'HEAD')).then(() => true, () => false)

/** Creates the bare wiki repository the first time anything needs it (a first page, a first clone or push). */
export async function ensureWiki(gitdir: string, defaultBranch: string) {
  if (await exists(gitdir)) return
  await withRepoLock(gitdir, async () => {
    if (!(await exists(gitdir))) await initRepository(gitdir, defaultBranch)
  })
}

/** The branch HEAD names: the wiki's default branch, whatever a push left there. */
export async function wikiBranch(gitdir: string, fallback: string): Promise<string> {
  try {
    const ref = await git.resolveRef({ fs, gitdir, ref: 'HEAD', depth: 1 })
    return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : fallback
  } catch {
    return fallback
  }
}

/** The commit pages are read from: `version` when given (null when it names nothing), else the default branch. */
export async function wikiCommit(gitdir: string, version?: string): Promise<string | null> {
  if (!(await exists(gitdir))) return null
  if (version !== undefined) return /^[0-9a-f]{4,40}$/i.test(version) ? resolveCommit(gitdir, version.toLowerCase()) : null
  return readRef(gitdir, 'HEAD')
}

/**
 * Every file of a commit's tree: one `git ls-tree -r` where git is installed (isomorphic-git reads tree after tree,
 * each through the pack), else the tree walked in-process.
 */
async function treeFiles(gitdir: string, commit: string): Promise<{ path: string; oid: string }[]> {
  if (!(await gitAvailable())) return (await readTreeItems(gitdir, await treeOf(gitdir, commit), '', true)).filter((i) => i.type === 'blob')
  return (await runGit(gitdir, ['ls-tree', '-r', '-z', '--full-tree', commit])).split('\0').flatMap((line) => {
    // <mode> SP <type> SP <oid> TAB <path>
    const tab = line.indexOf('\t')
    const [, type, oid] = line.slice(0, tab).split(' ')
    return tab > 0 && type === 'blob' ? [{ path: line.slice(tab + 1), oid }] : []
  })
}

/** Every page of a commit, sorted by path; files that are not pages (uploads, images) are left out. */
export async function listPageFiles(gitdir: string, commit: string | null): Promise<WikiPageFile[]> {
  if (!commit) return []
  const pages: WikiPageFile[] = []
  for (const file of await treeFiles(gitdir, commit)) {
    const page = pageOfPath(file.path)
    if (page) pages.push({ ...page, oid: file.oid })
  }
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The pages in one directory of a commit (the root for ''), without walking the rest of the tree. */
async function pagesIn(gitdir: string, commit: string, dir: string): Promise<WikiPageFile[]> {
  let oid = await treeOf(gitdir, commit)
  for (const part of dir ? dir.split('/') : []) {
    const e = (await readTreeItems(gitdir, oid, '', false)).find((t) => t.name === part && t.type === 'tree')
    if (!e) return []
    oid = e.oid
  }
  return (await readTreeItems(gitdir, oid, '', false)).flatMap((e) => {
    const page = e.type === 'blob' ? pageOfPath(dir ? `${dir}/${e.name}` : e.name) : null
    return page ? [{ ...page, oid: e.oid }] : []
  })
}

/**
 * The page a slug names: its exact spelling first, then ignoring case (GitLab's find_page), so `Home` finds `home.md`.
 * Several files for one slug (`a.md` and `a.rdoc`) resolve to the first by path, as git lists them.
 */
export async function findPageFile(gitdir: string, commit: string | null, slug: string): Promise<WikiPageFile | null> {
  if (!commit) return null
  const cut = slug.lastIndexOf('/')
  const candidates = await pagesIn(gitdir, commit, cut < 0 ? '' : slug.slice(0, cut))
  const folded = slug.toLowerCase()
  return candidates.find((p) => p.slug === slug) ?? candidates.find((p) => p.slug.toLowerCase() === folded) ?? null
}


/** What a change sees and edits: the branch's tree and its pages, both as they were when the lock was taken. */
export interface WikiChange {
  tree: TreeEditor
  pages: WikiPageFile[]
  writeBlob(content: Buffer): Promise<string>
}

export interface WikiCommitRequest {
  branch: string
  author: Signature
  /** Makes the change and returns the commit message; throwing leaves the repository untouched. */
  change: (c: WikiChange) => Promise<string>
}

/**
 * One commit on `branch` under the repository lock: a branch that does not exist yet starts from the default branch
 * (or from nothing in a new wiki), and the ref moves by compare-and-swap, so a concurrent push is never lost.
 */
export async function commitWiki(gitdir: string, req: WikiCommitRequest): Promise<string> {
  return withRepoLock(gitdir, async () => {
    const ref = `refs/heads/${req.branch}`
    const current = await readRef(gitdir, ref)
    const parent = current ?? (await readRef(gitdir, 'HEAD'))
    const tree = await TreeEditor.open(gitdir, parent ? await treeOf(gitdir, parent) : null)
    const pages = await listPageFiles(gitdir, parent)
    const message = await req.change({ tree, pages, writeBlob: (blob) => git.writeBlob({ fs, gitdir, blob }) })
    const treeOid = await tree.write()
    const oid = await git.writeCommit({
      fs, gitdir,
      commit: { message: `${message}\n`, tree: treeOid, parent: parent ? [parent] : [], author: req.author, committer: req.author },
    })
    await moveRef(gitdir, ref, oid, current)
    return oid
  })
}

