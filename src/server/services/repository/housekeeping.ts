// housekeeping_enabled and its periods: after a push, GitLab's Projects::HousekeepingService picks repack or gc by push count.
import type { AppDeps } from '../../context.js'
import { gitAvailable } from '../../git/exec.js'
import { withRepoLock } from '../../git/lock.js'
import { housekeep, type HousekeepingTask } from '../../git/maintenance.js'
import { forgetCache } from '../../git/read.js'
import { repositoryDir } from '../../git/repository.js'
import * as store from '../../store/repository-maintenance.js'
import { currentSettings, type Settings } from '../instance/application-settings.js'

/** The task for the n-th push since the last gc, or null when no period matches (GitLab's needed? and task). */
export function housekeepingTask(pushes: number, s: Settings): HousekeepingTask | null {
  if (pushes <= 0) return null
  if (pushes % s.housekeeping_gc_period === 0) return 'gc'
  if (pushes % s.housekeeping_full_repack_period === 0) return 'full_repack'
  if (pushes % s.housekeeping_incremental_repack_period === 0) return 'incremental_repack'
  return null
}

/**
 * Counts a push to the project and runs the task it calls for under the repository lock; a gc starts the count again.
 * Meant for the git-over-HTTP push hooks; answers the task run, if any.
 */
export async function housekeepAfterPush(app: AppDeps, projectId: number): Promise<HousekeepingTask | null> {
  const settings = currentSettings(app)
  if (!settings.housekeeping_enabled) return null
  const task = housekeepingTask(store.countPush(app.db, projectId), settings)
  if (!task || !(await gitAvailable())) return null
  const gitdir = repositoryDir(app.layout.repositories, projectId)
  await withRepoLock(gitdir, async () => {
    await housekeep(gitdir, task, settings.housekeeping_bitmaps_enabled)
    forgetCache(gitdir)
  })
  if (task === 'gc') store.resetPushes(app.db, projectId)
  return task
}
