// Application settings: the cached record every request may read (throttling, visibility, limits), and its validated update.
import { isSettingName } from '../../../contract/application-settings.js'
import { validationFailed } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import * as store from '../../store/application-settings.js'
import { currentSettings, forgetSettings, settingsRecord, type SettingsRecord } from '../../store/settings-record.js'
import { settingsErrors, visibilityName, VISIBILITY_LEVELS, type Settings, type Visibility } from './settings-rules.js'

export type { Settings, SettingsRecord, Visibility }
export { currentSettings, settingsRecord }

/**
 * The request's settings under their stored names: deprecated names mapped (api-v4.md §Versioning item 4; the current
 * name wins when both are sent), visibility levels by name, `nil` git protocol as null.
 */
export function normalizeUpdate(input: Record<string, unknown>): Partial<Settings> {
  const given: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(input)) if (value !== undefined && isSettingName(name)) given[name] = value
  if ('signin_enabled' in given && !('password_authentication_enabled_for_web' in given)) given.password_authentication_enabled_for_web = given.signin_enabled
  if ('performance_bar_allowed_group_id' in given && !('performance_bar_allowed_group_path' in given)) {
    given.performance_bar_allowed_group_path = given.performance_bar_allowed_group_id
  }
  // Turning the performance bar off is clearing its group; turning it on says nothing about which group.
  if (given.performance_bar_enabled === false) given.performance_bar_allowed_group_path = null
  delete given.signin_enabled
  delete given.performance_bar_allowed_group_id
  delete given.performance_bar_enabled
  if (given.enabled_git_access_protocol === 'nil' || given.enabled_git_access_protocol === '') given.enabled_git_access_protocol = null
  if (Array.isArray(given.restricted_visibility_levels)) {
    given.restricted_visibility_levels = [...new Set((given.restricted_visibility_levels as string[]).map((l) => visibilityName(l) ?? l))]
  }
  return given as Partial<Settings>
}

/** Validates the whole resulting record and stores it, or throws GitLab's 400 and changes nothing. */
export function updateSettings(ctx: RequestContext, input: Record<string, unknown>): SettingsRecord {
  const app = ctx.app
  const given = normalizeUpdate(input)
  const current = settingsRecord(app)
  const next: Settings = { ...current.settings, ...given }
  const errors = settingsErrors(given, next)
  if (Object.keys(errors).length) throw validationFailed(errors)
  // The row keeps what administrators set (defaults included, once set), so a later change of a default moves only the rest.
  const saved = JSON.parse(store.findSettingsRow(app.db)!.settings) as Record<string, unknown>
  const changed = { ...saved, ...given }
  store.saveSettings(app.db, changed, nowIso(ctx))
  forgetSettings(app.db)
  return settingsRecord(app)
}

/** Whether a non-administrator may use this visibility level (restricted_visibility_levels). */
export function visibilityAllowed(ctx: { app: AppDeps; user: { is_admin: number } | null }, level: Visibility): boolean {
  if (ctx.user?.is_admin) return true
  return !(currentSettings(ctx.app).restricted_visibility_levels ?? []).includes(level)
}

/** A restricted public level also hides user profiles from anonymous callers, as in GitLab. */
export const publicVisibilityRestricted = (app: AppDeps) => (currentSettings(app).restricted_visibility_levels ?? []).includes('public')

/** GitLab's closest_allowed_level: the most visible unrestricted level not above `level`, else private. */
export function closestAllowedLevel(app: AppDeps, level: Visibility): Visibility {
  const restricted = currentSettings(app).restricted_visibility_levels ?? []
  const allowed = VISIBILITY_LEVELS.slice(0, VISIBILITY_LEVELS.indexOf(level) + 1).filter((l) => !restricted.includes(l))
  return allowed[allowed.length - 1] ?? 'private'
}

/** Git over HTTP with an account password (not a token) as the Basic password. */
export const passwordAuthenticationForGit = (app: AppDeps) => currentSettings(app).password_authentication_enabled_for_git

/** enabled_git_access_protocol: `ssh` alone turns git over HTTP off (GitLab answers 'Git access over HTTP is not allowed'). */
export const gitOverHttpAllowed = (app: AppDeps) => currentSettings(app).enabled_git_access_protocol !== 'ssh'

/** Password sign-in on the web and the OAuth password grant. */
export const passwordAuthenticationForWeb = (app: AppDeps) => currentSettings(app).password_authentication_enabled_for_web

/** max_attachment_size in bytes: an upload above it answers 413. */
export const maxAttachmentBytes = (app: AppDeps) => currentSettings(app).max_attachment_size * 1024 * 1024

const LEVEL_TITLE: Record<Visibility, string> = { private: 'Private', internal: 'Internal', public: 'Public' }

export const restrictedLevelMessage = (level: Visibility) => `${LEVEL_TITLE[level]} visibility has been restricted by your GitLab administrator`

/** GitLab's refusal of a restricted level to a non-administrator (Projects::CreateService, UpdateService). */
export function requireVisibilityAllowed(ctx: { app: AppDeps; user: { is_admin: number } | null }, level: Visibility) {
  if (!visibilityAllowed(ctx, level)) throw validationFailed({ visibility_level: [restrictedLevelMessage(level)] })
}

/**
 * GitLab's check_personal_projects_limit: a project in a personal namespace counts against its creator's projects_limit
 * (set from default_projects_limit when the user was created); group projects never do.
 */
export function requireProjectLimit(namespace: { kind: string }, creator: { projects_limit: number } | undefined, personalProjects: number) {
  if (namespace.kind === 'group' || !creator || personalProjects < creator.projects_limit) return
  const limit = creator.projects_limit
  throw validationFailed({
    limit_reached: [limit === 0
      ? 'Personal project creation is not allowed. Please contact your administrator with questions'
      : `Your project limit is ${limit} projects! Please contact your administrator to increase it`],
  })
}
