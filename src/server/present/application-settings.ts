// The settings record as GET and PUT /application/settings answer it: id 1, timestamps, every setting in api-v4.md's order.
import { SETTING_NAMES } from '../../contract/application-settings.js'
import type { ApplicationSettings } from '../../contract/entities/application-settings.js'
import type { SettingsRecord } from '../services/instance/application-settings.js'

export function presentApplicationSettings(record: SettingsRecord): ApplicationSettings {
  const s = record.settings
  // The deprecated names read as their replacements say (api-v4.md §Versioning item 4).
  const derived: Record<string, unknown> = {
    signin_enabled: s.password_authentication_enabled_for_web,
    performance_bar_allowed_group_id: s.performance_bar_allowed_group_path,
    performance_bar_enabled: s.performance_bar_allowed_group_path !== null && s.performance_bar_allowed_group_path !== '',
  }
  // Built key by key from the catalogue (a rare read, 120 fields): the order is the table's, and none can be forgotten.
  const out: Record<string, unknown> = { id: 1 }
  for (const name of SETTING_NAMES) out[name] = name in derived ? derived[name] : s[name as keyof typeof s]
  out.created_at = record.createdAt
  out.updated_at = record.updatedAt
  return out as ApplicationSettings
}
