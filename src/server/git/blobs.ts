// The merge base of several commits, for the repository reads of issue 15.
import { runGit } from './exec.js'

/** The best common ancestor of resolved commits (`git merge-base`), or null when their histories never meet. */
export async function mergeBaseOf(gitdir: string, commits: string[]): Promise<string | null> {
  try {
    return (await runGit(gitdir, ['merge-base', ...commits])).trim() || null
  } catch {
    // git exits 1 with no output when there is no common ancestor.
    return null
  }
}
