// GitLab's rules for the application settings: companions a switch requires, ranges, enumerations.
import { expireInSeconds } from '../../../core/durations.js'
import type { StoredSettingName } from '../../../contract/application-settings.js'
import { isValidNewRefName } from '../../git/read.js'
import { DEFAULTS, VISIBILITY_LEVELS, type Settings, type Visibility } from '../../store/settings-record.js'

export { DEFAULTS, VISIBILITY_LEVELS, type Settings, type Visibility }

/**
 * A switch turned on in a PUT needs its companions in the same request, as GitLab's API declares them (`given … requires`);
 * the stored record must also hold a value for each (GitLab's model validations), so a later PUT cannot blank one.
 */
export const REQUIRES: Partial<Record<StoredSettingName, StoredSettingName[]>> = {
  spamfilter_enabled: ['spamfilter_api_key'],
  clientside_errortracker_enabled: ['clientside_errortracker_dsn'],
  errortracker_enabled: ['errortracker_dsn'],
  domain_blacklist_enabled: ['domain_blacklist'],
  enforce_terms: ['terms'],
  housekeeping_enabled: ['housekeeping_bitmaps_enabled', 'housekeeping_full_repack_period', 'housekeeping_gc_period', 'housekeeping_incremental_repack_period'],
  cloudide_enabled: ['cloudide_url'],
  metrics_enabled: ['metrics_host', 'metrics_method_call_threshold', 'metrics_packet_size', 'metrics_pool_size', 'metrics_port', 'metrics_sample_interval', 'metrics_timeout'],
  diagramtool_enabled: ['diagramtool_url'],
  captcha_enabled: ['captcha_private_key', 'captcha_site_key'],
  require_two_factor_authentication: ['two_factor_grace_period'],
  shared_runners_enabled: ['shared_runners_text'],
  jobqueue_throttling_enabled: ['jobqueue_throttling_factor', 'jobqueue_throttling_queues'],
  throttle_authenticated_api_enabled: ['throttle_authenticated_api_period_in_seconds', 'throttle_authenticated_api_requests_per_period'],
  throttle_authenticated_web_enabled: ['throttle_authenticated_web_period_in_seconds', 'throttle_authenticated_web_requests_per_period'],
  throttle_unauthenticated_enabled: ['throttle_unauthenticated_period_in_seconds', 'throttle_unauthenticated_requests_per_period'],
  unique_ips_limit_enabled: ['unique_ips_limit_per_user', 'unique_ips_limit_time_window'],
}

// GitLab validates no value for the shared runners' text: it only has to be sent along.
const MAY_BE_BLANK = new Set<StoredSettingName>(['shared_runners_text'])

type Errors = Record<string, string[]>
const add = (errors: Errors, field: string, message: string) => { (errors[field] ??= []).push(message) }

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)

/** Rails' numericality messages, which GitLab clients show as they are. */
function range(errors: Errors, s: Settings, field: StoredSettingName, rule: { gt?: number; gte?: number; lt?: number; lte?: number }) {
  const v = s[field]
  if (typeof v !== 'number') return
  if (rule.gt !== undefined && !(v > rule.gt)) add(errors, field, `must be greater than ${rule.gt}`)
  else if (rule.gte !== undefined && !(v >= rule.gte)) add(errors, field, `must be greater than or equal to ${rule.gte}`)
  else if (rule.lt !== undefined && !(v < rule.lt)) add(errors, field, `must be less than ${rule.lt}`)
  else if (rule.lte !== undefined && !(v <= rule.lte)) add(errors, field, `must be less than or equal to ${rule.lte}`)
}

const LEVEL_BY_NUMBER: Record<string, Visibility> = { 0: 'private', 10: 'internal', 20: 'public' }

/** `10` and `internal` name the same level; GitLab accepts both in restricted_visibility_levels. */
export const visibilityName = (level: string): Visibility | undefined =>
  (VISIBILITY_LEVELS as readonly string[]).includes(level) ? (level as Visibility)
    : Object.hasOwn(LEVEL_BY_NUMBER, level.trim()) ? LEVEL_BY_NUMBER[level.trim()] : undefined

// Gitlab::SSHPublicKey.supported_sizes.
const KEY_SIZES = { rsa: [1024, 2048, 3072, 4096], dsa: [1024, 2048, 3072], ecdsa: [256, 384, 521], ed25519: [256] } as const

const sentence = (items: readonly (string | number)[]) =>
  items.length < 3 ? items.join(' or ') : `${items.slice(0, -1).join(', ')}, or ${items[items.length - 1]}`

// GitLab's import sources; api-v4.md leaves the values out because they name other code hosts.
const IMPORT_SOURCES = ['github', 'bitbucket', 'bitbucket_server', 'gitlab', 'google_code', 'fogbugz', 'git', 'gitlab_project', 'gitea', 'manifest', 'phabricator']
// collab has one storage, and no OAuth sign-in sources at all.
const STORAGES = ['default']

const isUrl = (s: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol)
  } catch {
    return false
  }
}

function checkValues(errors: Errors, s: Settings) {
  for (const f of ['session_expire_delay', 'two_factor_grace_period', 'terminal_max_session_time', 'polling_interval_multiplier',
    'default_projects_limit', 'max_pages_size', 'circuitbreaker_check_interval', 'circuitbreaker_failure_count_threshold',
    'circuitbreaker_failure_reset_time', 'circuitbreaker_storage_timeout', 'repostorage_timeout_default', 'repostorage_timeout_fast',
    'repostorage_timeout_medium', 'metrics_method_call_threshold', 'metrics_packet_size', 'metrics_pool_size', 'metrics_sample_interval',
    'metrics_timeout', 'metrics_port'] as const) range(errors, s, f, { gte: 0 })
  range(errors, s, 'metrics_port', { lte: 65535 })
  for (const f of ['max_attachment_size', 'max_artifacts_size', 'container_registry_token_expire_delay', 'housekeeping_incremental_repack_period',
    'throttle_authenticated_api_period_in_seconds', 'throttle_authenticated_api_requests_per_period',
    'throttle_authenticated_web_period_in_seconds', 'throttle_authenticated_web_requests_per_period',
    'throttle_unauthenticated_period_in_seconds', 'throttle_unauthenticated_requests_per_period'] as const) range(errors, s, f, { gt: 0 })
  range(errors, s, 'circuitbreaker_access_retries', { gte: 1 })
  range(errors, s, 'housekeeping_full_repack_period', { gte: s.housekeeping_incremental_repack_period })
  range(errors, s, 'housekeeping_gc_period', { gte: s.housekeeping_full_repack_period })
  range(errors, s, 'repostorage_timeout_medium', { lte: s.repostorage_timeout_default })
  range(errors, s, 'repostorage_timeout_medium', { gte: s.repostorage_timeout_fast })
  range(errors, s, 'repostorage_timeout_fast', { lte: s.repostorage_timeout_default })
  range(errors, s, 'unique_ips_limit_time_window', { gte: 0 })
  range(errors, s, 'unique_ips_limit_per_user', s.unique_ips_limit_enabled ? { gte: 1 } : { gte: 0 })
  if (s.jobqueue_throttling_factor !== null) range(errors, s, 'jobqueue_throttling_factor', { gt: 0, lt: 1 })
  if (![0, 1, 2, 3, 4].includes(s.default_branch_protection)) add(errors, 'default_branch_protection', 'does not have a valid value')
  if (!blank(s.default_branch_name) && !isValidNewRefName(s.default_branch_name!)) add(errors, 'default_branch_name', 'is invalid')
  for (const [type, sizes] of Object.entries(KEY_SIZES)) {
    const field = `${type}_key_restriction` as StoredSettingName
    if (![0, -1, ...sizes].includes(s[field] as number)) add(errors, field, `must be forbidden, allowed, or one of these sizes: ${sentence(sizes)}`)
  }
  if (blank(s.default_artifacts_expire_in)) add(errors, 'default_artifacts_expire_in', "can't be blank")
  else if (expireInSeconds(s.default_artifacts_expire_in!) === null) add(errors, 'default_artifacts_expire_in', 'is not a correct duration')
  for (const level of s.restricted_visibility_levels ?? []) {
    if (!visibilityName(level)) add(errors, 'restricted_visibility_levels', `'${level}' is not a valid visibility level`)
  }
  for (const source of s.import_sources ?? []) if (!IMPORT_SOURCES.includes(source)) add(errors, 'import_sources', `'${source}' is not a import source`)
  for (const source of s.disabled_oauth_sign_in_sources ?? []) add(errors, 'disabled_oauth_sign_in_sources', `'${source}' is not an OAuth sign-in source`)
  if (blank(s.repository_storages)) add(errors, 'repository_storages', "can't be blank")
  const unknown = (s.repository_storages ?? []).filter((r) => !STORAGES.includes(r))
  if (unknown.length) add(errors, 'repository_storages', `can't include: ${unknown.join(', ')}`)
  if (s.admin_notification_email && !/^[^@\s]+@[^@\s]+$/.test(s.admin_notification_email)) add(errors, 'admin_notification_email', 'is invalid')
  for (const f of ['after_sign_out_path', 'home_page_url', 'help_page_support_url'] as const) {
    const v = s[f]
    if (v && !isUrl(v)) add(errors, f, 'must be a valid URL')
  }
}

/**
 * Every error a PUT would cause: companions missing from the request, then the whole resulting record's values.
 * `given` holds the settings the request named (after mapping deprecated names); `next` is the record it would leave.
 */
export function settingsErrors(given: Partial<Settings>, next: Settings): Errors {
  const errors: Errors = {}
  for (const [toggle, companions] of Object.entries(REQUIRES) as [StoredSettingName, StoredSettingName[]][]) {
    if (given[toggle] === true) for (const c of companions) if (!(c in given)) add(errors, c, 'is missing')
    if (next[toggle] === true) {
      for (const c of companions) if (!MAY_BE_BLANK.has(c) && blank(next[c]) && !errors[c]) add(errors, c, "can't be blank")
    }
  }
  checkValues(errors, next)
  return errors
}
