// Repository fixtures made through the API: commits from file actions, branch heads read back, raw objects via the git command line.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expectStatus, type Api } from './api.js'
import type { TestServer } from './server.js'

export interface Action {
  action: 'create' | 'update' | 'delete' | 'move' | 'chmod'
  file_path: string
  previous_path?: string
  content?: string
  encoding?: 'text' | 'base64'
  last_commit_id?: string
  execute_filemode?: boolean
}

export const create = (file_path: string, content: string): Action => ({ action: 'create', file_path, content })
export const update = (file_path: string, content: string): Action => ({ action: 'update', file_path, content })
export const remove = (file_path: string): Action => ({ action: 'delete', file_path })

export const repo = (projectId: number) => `/projects/${projectId}/repository`

/** POST …/repository/commits, expecting 201; returns the Commit. */
export async function commit(as: Api, projectId: number, body: { branch?: string; commit_message: string; actions: Action[]; [k: string]: unknown }): Promise<any> {
  return expectStatus(await as.post(`${repo(projectId)}/commits`, { branch: 'master', ...body }), 201).body
}

/** The commit a branch points at, or null when the branch does not exist. */
export async function branchHead(as: Api, projectId: number, branch: string): Promise<string | null> {
  const res = await as.get(`${repo(projectId)}/branches/${encodeURIComponent(branch)}`)
  if (res.status === 404) return null
  return expectStatus(res, 200).body.commit.id
}

/** Ids of a ref's history, newest first, read through the API (every page). */
export async function historyIds(as: Api, projectId: number, ref: string): Promise<string[]> {
  const ids: string[] = []
  for (let page = 1; ; page++) {
    const res = expectStatus(await as.get(`${repo(projectId)}/commits`, { query: { ref_name: ref, per_page: 100, page } }), 200)
    ids.push(...res.body.map((c: { id: string }) => c.id))
    if (!res.headers.get('x-next-page')) return ids
  }
}

/** The git command line on a project's bare repository: for checks, and for what the API cannot write (symlinks). */
export function gitIn(server: TestServer, projectId: number, args: string[], opts: { input?: string; env?: Record<string, string> } = {}): string {
  const gitdir = join(server.dataDir, 'repositories', `${projectId}.git`)
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', input: opts.input, env: { ...process.env, ...opts.env } })
}

/** `git cat-file -p` of an object in a project's bare repository, to check what a commit id was computed from. */
export const catFile = (server: TestServer, projectId: number, oid: string) => gitIn(server, projectId, ['cat-file', '-p', oid])

/** The two engines behind history and diffs: the git command line (when on the PATH) and isomorphic-git in-process. */
export const ENGINES = [
  { engine: 'the git command line', available: null },
  { engine: 'isomorphic-git in-process', available: false },
] as const
