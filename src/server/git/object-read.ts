// Objects of a bare repository by id: from git itself (a pool of `git cat-file --batch-command` processes, cat-file.ts), so
// memory never grows with a repository's packs; isomorphic-git answers only where no git command line is installed.
import * as git from './iso.js'
import { catFile, type GitObject, type ObjectType } from './cat-file.js'
import { gitAvailable } from './exec.js'
import { isoOptions } from './iso-cache.js'
import { parseTag } from './object-parse.js'
import { GitError } from './types.js'

export const HEX40 = /^[0-9a-f]{40}$/

/** A whole object by full id, null when missing; from git when installed, else isomorphic-git. */
export async function readObject(gitdir: string, oid: string): Promise<GitObject | null> {
  if (await gitAvailable()) return catFile(gitdir).read(oid)
  if (!HEX40.test(oid)) return null
  try {
    const { type, object } = await git.readObject({ ...isoOptions(gitdir), oid, format: 'content' })
    const content = Buffer.from(object as Uint8Array)
    return { oid, type: type as ObjectType, size: content.length, content }
  } catch {
    return null
  }
}

export async function readObjectOf(gitdir: string, oid: string, type: ObjectType): Promise<GitObject> {
  const obj = await readObject(gitdir, oid)
  if (obj?.type !== type) throw new GitError('not_found', `${type} ${oid} not found`)
  return obj
}

async function objectType(gitdir: string, oid: string): Promise<ObjectType | null> {
  if (await gitAvailable()) return (await catFile(gitdir).info(oid))?.type ?? null
  return (await readObject(gitdir, oid))?.type ?? null
}

/** Peels tags until a commit is reached. */
export async function peelToCommit(gitdir: string, oid: string): Promise<string | null> {
  for (let i = 0; i < 10; i++) {
    const type = await objectType(gitdir, oid)
    if (type === 'commit') return oid
    if (type !== 'tag') return null
    oid = parseTag((await readObjectOf(gitdir, oid, 'tag')).content).object
  }
  return null
}

/** A short id's full id, when it names one object. */
export async function expandShortId(gitdir: string, short: string): Promise<string | null> {
  if (await gitAvailable()) return (await catFile(gitdir).info(short))?.oid ?? null
  try {
    return await git.expandOid({ ...isoOptions(gitdir), oid: short })
  } catch {
    return null
  }
}
