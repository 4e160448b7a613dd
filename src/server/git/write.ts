// Writes to a bare repository: commits from file actions, branches and tags. Every ref moves by compare-and-swap under the repository lock.
import fs from 'node:fs'
import * as git from './iso.js'
import { readCommitParts } from './commit-read.js'
import { GitCommandError, gitAvailable, runGit } from './exec.js'
import { withRepoLock } from './lock.js'
import { lastCommitForPath } from './log.js'
import { isValidNewRefName, isValidRefName, readRef, resolveCommit } from './read.js'
import { TreeEditor } from './tree-edit.js'
import { GitError } from './types.js'

export interface Signature { name: string; email: string; timestamp: number; timezoneOffset: number }

export interface FileAction {
  action: 'create' | 'delete' | 'move' | 'update' | 'chmod'
  filePath: string
  previousPath?: string
  content?: Buffer
  lastCommitId?: string
  executeFilemode?: boolean
}

export interface CommitRequest {
  branch: string
  /** Where a new branch starts (a branch, tag or commit); ignored when the branch exists unless `force`. */
  start?: string
  force?: boolean
  message: string
  author: Signature
  committer: Signature
  actions: FileAction[]
}

/**
 * Only the refs we write move under our lock; git's own receive-pack takes the same lock (see transport). git itself
 * moves the ref where installed: it writes `<ref>.lock` and renames it, so a reader never sees the file half written
 * (isomorphic-git truncates the ref file in place, and rewrites packed-refs so, to delete), and checks the old value
 * again under its own lock.
 */
export async function moveRef(gitdir: string, ref: string, next: string | null, expected: string | null) {
  const current = await readRef(gitdir, ref)
  if (current !== expected) throw new GitError('stale', `${ref} moved while this change was being made; try again`)
  if (next === null && expected === null) return
  if (await gitAvailable()) {
    const args = next === null ? ['update-ref', '-d', ref, expected!] : ['update-ref', ref, next, expected ?? ZERO_OID]
    await runGit(gitdir, args).catch(async (err) => {
      if ((await readRef(gitdir, ref)) !== expected) throw new GitError('stale', `${ref} moved while this change was being made; try again`)
      // A name that cannot sit beside an existing one (`a` while `a/b` exists, or the reverse): git's words, as GitLab relays them.
      const clash = err instanceof GitCommandError ? /cannot lock ref '[^']*': (.*exists; cannot create .*)$/m.exec(err.stderr) : null
      if (clash) throw new GitError('invalid', clash[1].trim())
      throw err
    })
  } else if (next === null) await git.deleteRef({ fs, gitdir, ref })
  else await git.writeRef({ fs, gitdir, ref, value: next, force: true })
}

const ZERO_OID = '0'.repeat(40)

const timezone = (offset: number) => {
  // isomorphic-git's timezoneOffset is minutes west of UTC; git writes east of UTC as +HHMM.
  const east = offset === 0 ? 0 : -offset
  const abs = Math.abs(east)
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}
const signatureLine = (s: Signature) => `${s.name} <${s.email}> ${s.timestamp} ${timezone(s.timezoneOffset)}`

/**
 * Writes a commit whose message is stored byte for byte: isomorphic-git's writeCommit ends every message with one
 * newline, where GitLab writes some (a revert's) without. Returns the commit id.
 */
export async function writeExactCommit(gitdir: string, c: { message: string; tree: string; parent: string[]; author: Signature; committer: Signature }): Promise<string> {
  const text = `tree ${c.tree}
${c.parent.map((p) => `parent ${p}
`).join('')}author ${signatureLine(c.author)}
committer ${signatureLine(c.committer)}

${c.message}`
  return git.writeObject({ fs, gitdir, type: 'commit', object: Buffer.from(text, 'utf8'), format: 'content' })
}

async function hasBranches(gitdir: string) {
  return (await git.listBranches({ fs, gitdir })).length > 0
}

async function checkLastCommit(gitdir: string, head: string | null, a: FileAction, path: string) {
  if (!a.lastCommitId || !head) return
  if (!/^[0-9a-f]{4,40}$/.test(a.lastCommitId) || !(await resolveCommit(gitdir, a.lastCommitId))) {
    throw new GitError('invalid', `last_commit_id ${a.lastCommitId} is not a commit of this repository`)
  }
  const last = await lastCommitForPath(gitdir, head, path)
  if (!last || !last.startsWith(a.lastCommitId)) {
    throw new GitError('stale', `The file has changed since you started editing it: ${path}`)
  }
}

async function applyAction(gitdir: string, tree: TreeEditor, head: string | null, a: FileAction) {
  const existing = await tree.get(a.filePath)
  const isFile = existing !== null && existing.type !== 'tree'
  const mode = (executable: boolean | undefined, fallback = '100644') => (executable === undefined ? fallback : executable ? '100755' : '100644')
  switch (a.action) {
    case 'create': {
      if (existing) throw new GitError('invalid', `A file with this name already exists: ${a.filePath}`)
      const oid = await git.writeBlob({ fs, gitdir, blob: a.content ?? Buffer.alloc(0) })
      await tree.set(a.filePath, oid, mode(a.executeFilemode))
      return
    }
    case 'update': {
      if (!isFile) throw new GitError('invalid', `A file with this name doesn't exist: ${a.filePath}`)
      await checkLastCommit(gitdir, head, a, a.filePath)
      const oid = await git.writeBlob({ fs, gitdir, blob: a.content ?? Buffer.alloc(0) })
      await tree.set(a.filePath, oid, mode(a.executeFilemode, existing!.mode))
      return
    }
    case 'delete': {
      if (!isFile) throw new GitError('invalid', `A file with this name doesn't exist: ${a.filePath}`)
      await checkLastCommit(gitdir, head, a, a.filePath)
      await tree.remove(a.filePath)
      return
    }
    case 'chmod': {
      if (!isFile) throw new GitError('invalid', `A file with this name doesn't exist: ${a.filePath}`)
      await tree.set(a.filePath, existing!.oid, mode(a.executeFilemode ?? false))
      return
    }
    case 'move': {
      const from = a.previousPath
      if (!from) throw new GitError('invalid', `previous_path is required to move ${a.filePath}`)
      const source = await tree.get(from)
      if (!source || source.type === 'tree') throw new GitError('invalid', `A file with this name doesn't exist: ${from}`)
      if (existing) throw new GitError('invalid', `A file with this name already exists: ${a.filePath}`)
      await checkLastCommit(gitdir, head, a, from)
      const oid = a.content !== undefined ? await git.writeBlob({ fs, gitdir, blob: a.content }) : source.oid
      await tree.remove(from)
      await tree.set(a.filePath, oid, mode(a.executeFilemode, source.mode))
      return
    }
  }
}

export async function commitActions(gitdir: string, req: CommitRequest): Promise<{ oid: string; parent: string | null; before: string | null }> {
  if (!isValidRefName(req.branch)) throw new GitError('invalid', `Invalid branch name: ${req.branch}`)
  return withRepoLock(gitdir, async () => {
    const ref = `refs/heads/${req.branch}`
    const current = await readRef(gitdir, ref)
    if (!current && !isValidNewRefName(req.branch)) throw new GitError('invalid', `Invalid branch name: ${req.branch}`)
    let parent = current
    if (req.start !== undefined && (!current || req.force)) {
      parent = await resolveCommit(gitdir, req.start)
      // An empty repository has nothing to start from; GitLab makes the first commit there (Commits::CreateService).
      if (!parent && (await hasBranches(gitdir))) throw new GitError('invalid', `Invalid reference name: ${req.start}`)
    } else if (!current && (await hasBranches(gitdir))) {
      throw new GitError('invalid', 'You can only create or edit files when you are on a branch')
    } else if (current && req.start !== undefined && req.start !== req.branch && !req.force) {
      throw new GitError('invalid', `A branch called '${req.branch}' already exists. Switch to that branch in order to make changes`)
    }
    const parentTree = parent ? (await readCommitParts(gitdir, parent)).tree : null
    const tree = await TreeEditor.open(gitdir, parentTree)
    for (const action of req.actions) await applyAction(gitdir, tree, parent, action)
    const treeOid = await tree.write()
    const oid = await git.writeCommit({
      fs, gitdir,
      commit: { message: req.message.endsWith('\n') ? req.message : `${req.message}\n`, tree: treeOid, parent: parent ? [parent] : [], author: req.author, committer: req.committer },
    })
    await moveRef(gitdir, ref, oid, current)
    return { oid, parent, before: current }
  })
}

export async function createBranch(gitdir: string, name: string, target: string) {
  if (!isValidNewRefName(name)) throw new GitError('invalid', `Branch name is invalid`)
  return withRepoLock(gitdir, async () => {
    if (await readRef(gitdir, `refs/heads/${name}`)) throw new GitError('exists', 'Branch already exists')
    const oid = await resolveCommit(gitdir, target)
    if (!oid) throw new GitError('invalid', 'Invalid reference name: ' + target)
    await moveRef(gitdir, `refs/heads/${name}`, oid, null).catch((err: unknown) => {
      // GitLab's Branches::CreateService words a failed ref write so.
      throw err instanceof GitError && err.kind === 'invalid' ? new GitError('invalid', `Failed to create branch '${name}': ${err.message}`) : err
    })
    return oid
  })
}

export async function deleteBranch(gitdir: string, name: string) {
  return withRepoLock(gitdir, async () => {
    const current = isValidRefName(name) ? await readRef(gitdir, `refs/heads/${name}`) : null
    if (!current) throw new GitError('not_found', 'No such branch')
    await moveRef(gitdir, `refs/heads/${name}`, null, current)
  })
}

/** `beforeWrite` stands where GitLab runs its hooks: after the name, the existing tag and the target are checked. */
export async function createTag(gitdir: string, name: string, target: string, message: string | undefined, tagger: Signature, beforeWrite?: () => void) {
  if (!isValidNewRefName(name)) throw new GitError('invalid', 'Tag name invalid')
  return withRepoLock(gitdir, async () => {
    if (await readRef(gitdir, `refs/tags/${name}`)) throw new GitError('exists', `Tag ${name} already exists`)
    const oid = await resolveCommit(gitdir, target)
    if (!oid) throw new GitError('invalid', 'Target ' + target + ' is invalid')
    beforeWrite?.()
    const value = message
      // isomorphic-git ends the object with a newline of its own; one more would make a different tag than `git tag -a`.
      ? await git.writeTag({ fs, gitdir, tag: { object: oid, type: 'commit', tag: name, tagger, message: message.replace(/\n+$/, '') } })
      : oid
    await moveRef(gitdir, `refs/tags/${name}`, value, null)
  })
}

export async function deleteTag(gitdir: string, name: string) {
  return withRepoLock(gitdir, async () => {
    const current = isValidRefName(name) ? await readRef(gitdir, `refs/tags/${name}`) : null
    if (!current) throw new GitError('not_found', 'Tag Not Found')
    await moveRef(gitdir, `refs/tags/${name}`, null, current)
  })
}


/** Points HEAD at a branch so clones check out the project's default branch; works without a git command line. */
export async function setHead(gitdir: string, branch: string) {
  if (!isValidRefName(branch)) throw new GitError('invalid', `Invalid branch name: ${branch}`)
  await git.writeRef({ fs, gitdir, ref: 'HEAD', value: `refs/heads/${branch}`, symbolic: true, force: true })
}
