// The repository and the wiki of a migrated project, through git over HTTP: a mirror clone of the source in a
// temporary directory, then a push of its branches and tags. Tokens travel as per-URL extra headers in the
// environment (as `collab project clone` sends them), never in argv or a URL.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { failure } from '../../src/cli/errors.js'
import { route } from '../../src/client/paths.js'
import type { Env } from '../../src/cli/io.js'
import { gitAuthEnv } from './clone.js'
import { count, type Migration } from './migrate-context.js'

export interface RepositoryCopy {
  /** The source's branches, all pushed to the target. */
  branches: Set<string>
  /** Pushes commits of the mirror to new branches of the target; answers the branches that failed. */
  pushBranches(list: { sha: string; branch: string }[]): Promise<Set<string>>
  /** Removes the mirror clone. */
  close(): void
}

type Git = (args: string[], cwd?: string) => Promise<{ exitCode: number; stdout: string; stderr: string }>

function gitRunner(m: Migration, env: Env): Git {
  const wikiOf = (url: string) => url.replace(/\.git$/, '.wiki.git')
  let vars: Record<string, string | undefined> = { ...env, GIT_TERMINAL_PROMPT: '0' }
  for (const [url, api] of [[m.from.http_url_to_repo, m.source.api], [m.to.http_url_to_repo, m.target.api]] as const) {
    const credentials = api.credentials()
    if (!credentials) continue
    for (const u of [url, wikiOf(url)]) vars = { ...vars, ...gitAuthEnv(vars, u, credentials) }
  }
  return async (args, cwd) => {
    const { execa } = await import('execa')
    const result = await execa('git', args, { cwd, env: vars, extendEnv: false, stdin: 'ignore', reject: false })
    if ((result as { code?: string }).code === 'ENOENT') throw failure('git is not installed or not on the PATH', 'install git, then run the command again')
    return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) }
  }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** `git push --porcelain` lines: `<flag>\t<from>:<to>\t<summary>`; `!` is a rejected ref, `=` one already there. */
function pushed(stdout: string): { updated: string[]; current: string[]; rejected: string[] } {
  const out = { updated: [] as string[], current: [] as string[], rejected: [] as string[] }
  for (const line of stdout.split('\n')) {
    const match = /^([ +\-*!=])\t[^:]*:([^\t]+)\t(.*)$/.exec(line)
    if (!match) continue
    if (match[1] === '!') out.rejected.push(`${match[2]} (${match[3]})`)
    else if (match[1] === '=') out.current.push(match[2])
    else out.updated.push(match[2])
  }
  return out
}

export async function copyRepository(m: Migration, env: Env): Promise<RepositoryCopy> {
  m.progress.begin('repository')
  const git = gitRunner(m, env)
  const dir = mkdtempSync(join(tmpdir(), 'collab-migrate-'))
  const mirror = join(dir, 'repository.git')
  const close = () => rmSync(dir, { recursive: true, force: true })
  try {
    const clone = await git(['clone', '--mirror', '--quiet', '--', m.from.http_url_to_repo, mirror])
    if (clone.exitCode !== 0) throw failure(`git clone of ${m.from.path_with_namespace} failed: ${clone.stderr.trim()}`)
    const refs = await git(['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/tags'], mirror)
    const names = refs.stdout.split('\n').filter(Boolean)
    const branches = new Set(names.filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length)))
    if (names.length > 0) {
      // Not --mirror: it would also push merge request and pipeline refs, which GitLab keeps to itself.
      const push = await git(['push', '--porcelain', '--', m.to.http_url_to_repo, 'refs/heads/*:refs/heads/*', 'refs/tags/*:refs/tags/*'], mirror)
      const result = pushed(push.stdout)
      if (push.exitCode !== 0 && result.rejected.length === 0) throw failure(`git push to ${m.to.path_with_namespace} failed: ${push.stderr.trim()}`)
      for (const ref of result.rejected) m.tally.problems.push(`git ref ${ref} was not pushed`)
      count(m.tally, 'copied', 'git refs', result.updated.length)
      count(m.tally, 'already', 'git refs', result.current.length)
    }
    m.progress.end('repository', `${plural(branches.size, 'branch', 'branches')}, ${plural(names.length - branches.size, 'tag', 'tags')}`)
    return {
      branches,
      async pushBranches(list) {
        const push = await git(['push', '--porcelain', '--', m.to.http_url_to_repo, ...list.map((b) => `${b.sha}:refs/heads/${b.branch}`)], mirror)
        const result = pushed(push.stdout)
        const ok = new Set([...result.updated, ...result.current].map((r) => r.replace(/^refs\/heads\//, '')))
        return new Set(list.map((b) => b.branch).filter((b) => !ok.has(b)))
      },
      close,
    }
  } catch (err) {
    close()
    throw err
  }
}

/** The wiki's branches, when the source has a wiki with pages. */
export async function copyWiki(m: Migration, env: Env): Promise<void> {
  // GitLab makes a wiki's repository with its first page: without pages there may be nothing to clone.
  const pages = await m.source.find<unknown[]>(route('listWikiPages', { id: m.from.id }))
  if (!pages?.length) {
    m.progress.end('wiki', 'no pages')
    return
  }
  m.progress.begin('wiki')
  const git = gitRunner(m, env)
  const dir = mkdtempSync(join(tmpdir(), 'collab-migrate-wiki-'))
  try {
    const from = m.from.http_url_to_repo.replace(/\.git$/, '.wiki.git')
    const clone = await git(['clone', '--mirror', '--quiet', '--', from, dir])
    if (clone.exitCode !== 0) {
      m.tally.problems.push(`wiki: git clone failed (${clone.stderr.trim().split('\n').pop()})`)
      return
    }
    const heads = (await git(['for-each-ref', '--format=%(refname)', 'refs/heads'], dir)).stdout.split('\n').filter(Boolean)
    if (heads.length === 0) {
      m.progress.end('wiki', 'no pages')
      return
    }
    const push = await git(['push', '--porcelain', '--', m.to.http_url_to_repo.replace(/\.git$/, '.wiki.git'), 'refs/heads/*:refs/heads/*'], dir)
    const result = pushed(push.stdout)
    if (push.exitCode !== 0 && result.rejected.length === 0) m.tally.problems.push(`wiki: git push failed (${push.stderr.trim().split('\n').pop()})`)
    for (const ref of result.rejected) m.tally.problems.push(`wiki ref ${ref} was not pushed`)
    count(m.tally, 'copied', 'wiki refs', result.updated.length)
    count(m.tally, 'already', 'wiki refs', result.current.length)
    m.progress.end('wiki', `${plural(heads.length, 'branch', 'branches')} pushed`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
