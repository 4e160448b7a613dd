// The application settings as the server reads them: the stored row over the defaults, one copy per database. Below
// the services, so CI reads its limits (artifact size and expiry) without importing them.
import { STORED_SETTING_NAMES, type SETTING_KINDS, type SettingKind, type StoredSettingName } from '../../contract/application-settings.js'
import type { Clock } from '../../core/clock.js'
import type { Db } from './db.js'
import { findSettingsRow, insertSettingsRow } from './application-settings.js'

export const VISIBILITY_LEVELS = ['private', 'internal', 'public'] as const
export type Visibility = (typeof VISIBILITY_LEVELS)[number]

type ValueOf<K extends SettingKind> = K extends 'boolean' ? boolean : K extends 'integer' | 'decimal' ? number
  : K extends 'array' ? string[] | null : string | null

type Narrowed = 'jobqueue_throttling_factor' | 'default_group_visibility' | 'default_project_visibility' | 'default_snippet_visibility' | 'restricted_visibility_levels'

export type Settings = Omit<{ [K in StoredSettingName]: ValueOf<(typeof SETTING_KINDS)[K]> }, Narrowed> & {
  jobqueue_throttling_factor: number | null
  default_group_visibility: Visibility
  default_project_visibility: Visibility
  default_snippet_visibility: Visibility
  restricted_visibility_levels: Visibility[] | null
}

/** api-v4.md's documented defaults; where it documents none, GitLab's own (ApplicationSetting.defaults). */
export const DEFAULTS: Settings = {
  admin_notification_email: null,
  after_sign_out_path: null,
  after_sign_up_text: null,
  spamfilter_api_key: null,
  spamfilter_enabled: false,
  allow_local_requests_from_hooks_and_services: false,
  authorized_keys_enabled: true,
  auto_devops_domain: null,
  auto_devops_enabled: true,
  circuitbreaker_access_retries: 3,
  circuitbreaker_check_interval: 1,
  circuitbreaker_failure_count_threshold: 3,
  circuitbreaker_failure_reset_time: 1800,
  circuitbreaker_storage_timeout: 15,
  clientside_errortracker_dsn: null,
  clientside_errortracker_enabled: false,
  container_registry_token_expire_delay: 5,
  default_artifacts_expire_in: '30 days',
  default_branch_protection: 2,
  default_branch_name: null,
  default_group_visibility: 'private',
  default_project_visibility: 'private',
  default_snippet_visibility: 'private',
  default_projects_limit: 100000,
  disabled_oauth_sign_in_sources: [],
  domain_blacklist: [],
  domain_blacklist_enabled: false,
  domain_whitelist: null,
  dsa_key_restriction: 0,
  ecdsa_key_restriction: 0,
  ed25519_key_restriction: 0,
  rsa_key_restriction: 0,
  email_author_in_body: false,
  enabled_git_access_protocol: null,
  enforce_terms: false,
  terms: null,
  repostorage_timeout_default: 55,
  repostorage_timeout_fast: 10,
  repostorage_timeout_medium: 30,
  avatarservice_enabled: true,
  hashed_storage_enabled: false,
  help_page_hide_commercial_content: false,
  help_page_support_url: null,
  help_page_text: null,
  hide_third_party_offers: false,
  home_page_url: null,
  housekeeping_enabled: true,
  housekeeping_bitmaps_enabled: true,
  housekeeping_full_repack_period: 50,
  housekeeping_gc_period: 200,
  housekeeping_incremental_repack_period: 10,
  html_emails_enabled: true,
  instance_statistics_visibility_private: false,
  import_sources: [],
  cloudide_enabled: false,
  cloudide_url: null,
  max_artifacts_size: 100,
  max_attachment_size: 10,
  max_pages_size: 100,
  metrics_enabled: false,
  metrics_host: 'localhost',
  metrics_method_call_threshold: 10,
  metrics_packet_size: 1,
  metrics_pool_size: 16,
  metrics_port: 8089,
  metrics_sample_interval: 15,
  metrics_timeout: 10,
  mirror_available: true,
  pages_domain_verification_enabled: true,
  password_authentication_enabled_for_git: true,
  password_authentication_enabled_for_web: true,
  performance_bar_allowed_group_path: null,
  diagramtool_enabled: false,
  diagramtool_url: null,
  polling_interval_multiplier: 1,
  project_export_enabled: true,
  monitoring_metrics_enabled: false,
  captcha_enabled: false,
  captcha_private_key: null,
  captcha_site_key: null,
  repository_checks_enabled: true,
  repository_storages: ['default'],
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  restricted_visibility_levels: null,
  send_user_confirmation_email: false,
  errortracker_dsn: null,
  errortracker_enabled: false,
  session_expire_delay: 10080,
  shared_runners_enabled: true,
  shared_runners_text: null,
  jobqueue_throttling_enabled: false,
  jobqueue_throttling_factor: null,
  jobqueue_throttling_queues: [],
  sign_in_text: null,
  signup_enabled: true,
  terminal_max_session_time: 0,
  throttle_authenticated_api_enabled: false,
  throttle_authenticated_api_period_in_seconds: 3600,
  throttle_authenticated_api_requests_per_period: 7200,
  throttle_authenticated_web_enabled: false,
  throttle_authenticated_web_period_in_seconds: 3600,
  throttle_authenticated_web_requests_per_period: 7200,
  throttle_unauthenticated_enabled: false,
  throttle_unauthenticated_period_in_seconds: 3600,
  throttle_unauthenticated_requests_per_period: 3600,
  unique_ips_limit_enabled: false,
  unique_ips_limit_per_user: 10,
  unique_ips_limit_time_window: 3600,
  usage_ping_enabled: true,
  user_default_external: false,
  user_oauth_applications: true,
  user_show_add_ssh_key_message: true,
  version_check_enabled: true,
}

export interface SettingsRecord {
  settings: Settings
  createdAt: string
  updatedAt: string
}

// A read is a map lookup; the service that writes the row forgets it (forgetSettings).
const cache = new WeakMap<Db, SettingsRecord>()

function load(db: Db, clock: Clock): SettingsRecord {
  let row = findSettingsRow(db)
  if (!row) {
    insertSettingsRow(db, clock.now().toISOString())
    row = findSettingsRow(db)!
  }
  const saved = JSON.parse(row.settings) as Record<string, unknown>
  const settings = { ...DEFAULTS }
  // Only known names: a setting removed from the code leaves its stored value behind unseen.
  for (const name of STORED_SETTING_NAMES) if (Object.hasOwn(saved, name)) (settings as Record<string, unknown>)[name] = saved[name]
  return { settings, createdAt: row.created_at, updatedAt: row.updated_at }
}

export function settingsRecord(app: { db: Db; clock: Clock }): SettingsRecord {
  let record = cache.get(app.db)
  if (!record) cache.set(app.db, (record = load(app.db, app.clock)))
  return record
}

/** The current settings; cheap enough for every request. */
export const currentSettings = (app: { db: Db; clock: Clock }): Settings => settingsRecord(app).settings

export const forgetSettings = (db: Db) => cache.delete(db)
