// Git over HTTP for wikis: which path names a wiki, and a push to it, which moves no project state and starts no pipeline.
import type { AppDeps } from '../../context.js'
import { withRepoLock } from '../../git/lock.js'
import { forgetCache, readRef } from '../../git/read.js'
import { diffRefs, setHeadBranch, snapshotRefs } from '../../git/transport.js'
import { ensureWiki, wikiBranch, wikiDir } from '../../git/wiki.js'
import { findProjectByPath } from '../../store/projects.js'
import type { GitAccess } from '../repository/git-access.js'
import { WIKI_DEFAULT_BRANCH } from './wikis.js'

/** `group/project.wiki` to `group/project`; null for a project's own repository (a project may itself end in `.wiki`). */
export function wikiProjectPath(app: AppDeps, repoPath: string): string | null {
  if (!/\.wiki$/i.test(repoPath) || findProjectByPath(app.db, repoPath)) return null
  return repoPath.slice(0, -'.wiki'.length)
}

/** A first clone or push of a wiki without pages finds an empty repository rather than a 404. */
export async function prepareWikiRepository(app: AppDeps, access: GitAccess): Promise<void> {
  await ensureWiki(wikiDir(app.layout.repositories, access.project.id), WIKI_DEFAULT_BRANCH)
}

/**
 * Runs one receive-pack into the wiki under its lock, so API edits (which compare the ref before moving it) and pushes
 * never lose each other's commits. When the default branch is still unborn, HEAD follows the first branch pushed.
 */
export async function receiveWikiPack(app: AppDeps, access: GitAccess, run: () => Promise<void>): Promise<void> {
  const gitdir = wikiDir(app.layout.repositories, access.project.id)
  await withRepoLock(gitdir, async () => {
    const before = await snapshotRefs(gitdir)
    try {
      await run()
    } finally {
      forgetCache(gitdir)
      const after = await snapshotRefs(gitdir)
      const pushed = diffRefs(before, after).map((c) => c.ref).filter((r) => r.startsWith('refs/heads/') && after.has(r))
      const head = await wikiBranch(gitdir, WIKI_DEFAULT_BRANCH)
      if (pushed.length && !(await readRef(gitdir, `refs/heads/${head}`))) {
        const names = pushed.map((r) => r.slice('refs/heads/'.length))
        await setHeadBranch(gitdir, names.find((n) => n === WIKI_DEFAULT_BRANCH || n === 'main') ?? names[0])
      }
    }
  })
}
