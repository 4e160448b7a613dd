// Repository maintenance through the git command line (isomorphic-git has neither): `git fsck` checks, repack and gc housekeeping.
import { GitCommandError, runGit } from './exec.js'
import { writeCommitGraph } from './housekeeping.js'

export interface FsckResult { ok: boolean; output: string }

/** GitLab's repository check: `git fsck` without dangling-object noise; its complaints are the result. */
export async function fsck(gitdir: string): Promise<FsckResult> {
  try {
    return { ok: true, output: (await runGit(gitdir, ['fsck', '--no-dangling', '--no-progress'])).trim() }
  } catch (err) {
    if (err instanceof GitCommandError) return { ok: false, output: err.stderr.trim() || err.message }
    throw err
  }
}

export type HousekeepingTask = 'incremental_repack' | 'full_repack' | 'gc'

/** GitLab's three housekeeping tasks, with pack bitmaps when housekeeping_bitmaps_enabled says so. */
export async function housekeep(gitdir: string, task: HousekeepingTask, bitmaps: boolean) {
  // gc writes a whole commit-graph of its own (gc.writeCommitGraph), keeping the Bloom filters.
  if (task !== 'gc') await writeCommitGraph(gitdir)
  const writeBitmaps = ['-c', `repack.writeBitmaps=${bitmaps}`]
  if (task === 'incremental_repack') await runGit(gitdir, ['repack', '-d', '--quiet'])
  else if (task === 'full_repack') await runGit(gitdir, [...writeBitmaps, 'repack', '-A', '-d', '--pack-kept-objects', '--quiet'])
  else await runGit(gitdir, [...writeBitmaps, '-c', 'gc.autoDetach=false', 'gc', '--quiet'])
}
