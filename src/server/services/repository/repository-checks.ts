// repository_checks_enabled: a periodic `git fsck` of every repository, its result kept per project for administrators.
import type { AppDeps } from '../../context.js'
import { nowIso } from '../../context.js'
import { gitAvailable } from '../../git/exec.js'
import { fsck } from '../../git/maintenance.js'
import { repositoryDir } from '../../git/repository.js'
import * as store from '../../store/repository-maintenance.js'
import { currentSettings } from '../instance/application-settings.js'

// GitLab checks each repository about once a month, a batch an hour.
export const CHECK_AGE_MS = 30 * 24 * 3600 * 1000
export const CHECK_EVERY_MS = 3600 * 1000
const BATCH = 100

export interface RepositoryCheck {
  last_repository_check_at: string | null
  last_repository_check_failed: boolean | null
  output: string | null
}

export function presentRepositoryCheck(row: store.RepositoryCheckRow | undefined): RepositoryCheck {
  return {
    last_repository_check_at: row?.checked_at ?? null,
    last_repository_check_failed: row ? row.failed === 1 : null,
    output: row?.output ?? null,
  }
}

export const findRepositoryCheck = (app: AppDeps, projectId: number) => presentRepositoryCheck(store.findRepositoryCheck(app.db, projectId))

/** One `git fsck` now, whatever the setting says (the administrator asked); null when git is not installed. */
export async function checkRepository(app: AppDeps, projectId: number): Promise<RepositoryCheck | null> {
  if (!(await gitAvailable())) return null
  const result = await fsck(repositoryDir(app.layout.repositories, projectId))
  store.saveRepositoryCheck(app.db, { project_id: projectId, checked_at: nowIso({ app }), failed: result.ok ? 0 : 1, output: result.output })
  if (!result.ok) app.log.warn(`repository check of project ${projectId} failed: ${result.output}`)
  return findRepositoryCheck(app, projectId)
}

/** Checks the repositories whose last check is a month old (or never happened), while the setting is on. */
export async function checkDueRepositories(app: AppDeps): Promise<number> {
  if (!currentSettings(app).repository_checks_enabled || !(await gitAvailable())) return 0
  const before = new Date(app.clock.now().getTime() - CHECK_AGE_MS).toISOString()
  const due = store.listProjectsDueForCheck(app.db, before, BATCH)
  for (const id of due) {
    // The setting may be turned off while a batch runs.
    if (!currentSettings(app).repository_checks_enabled) break
    await checkRepository(app, id)
  }
  return due.length
}

/**
 * Starts the hourly dispatch; the first batch runs one interval (at most a minute) after start, so a server that
 * just booted answers requests before it spends time on fsck. The returned function stops it.
 */
export function scheduleRepositoryChecks(app: AppDeps, everyMs = CHECK_EVERY_MS): () => void {
  const tick = () => app.tasks.run('repository checks', async () => { await checkDueRepositories(app) })
  const timer = setInterval(tick, everyMs)
  const first = setTimeout(tick, Math.min(everyMs, 60_000))
  timer.unref()
  first.unref()
  return () => {
    clearInterval(timer)
    clearTimeout(first)
  }
}
