// Hooks and their delivery log as GitLab serializes them; tokens and the values of URL variables and headers never leave.
import { hookAlertStatus } from '../../core/hook-alert.js'
import { PROJECT_HOOK_EVENTS, SYSTEM_HOOK_EVENTS, type ProjectHook, type SystemHook, type WebHookLog } from '../../contract/entities/hooks.js'
import type { HookLogRow, HookRow } from '../store/hooks.js'

type Flags = Partial<Record<string, boolean>>
const keysOf = (json: string) => Object.keys(JSON.parse(json) as Record<string, string>).map((key) => ({ key }))

function presentCommon(h: HookRow, now: string) {
  const flags = JSON.parse(h.events) as Flags
  return {
    id: h.id,
    url: h.url,
    name: h.name,
    description: h.description,
    created_at: h.created_at,
    ...Object.fromEntries(SYSTEM_HOOK_EVENTS.map((e) => [e, flags[e] === true])) as Record<(typeof SYSTEM_HOOK_EVENTS)[number], boolean>,
    enable_ssl_verification: h.enable_ssl_verification === 1,
    alert_status: hookAlertStatus(h, now),
    disabled_until: h.permanently_disabled ? null : h.disabled_until && h.disabled_until > now ? h.disabled_until : null,
    url_variables: keysOf(h.url_variables),
    push_events_branch_filter: h.push_events_branch_filter,
    branch_filter_strategy: h.branch_filter_strategy,
    custom_webhook_template: h.custom_webhook_template,
    custom_headers: keysOf(h.custom_headers),
  }
}

export const presentSystemHook = (h: HookRow, now: string): SystemHook => presentCommon(h, now)

export function presentProjectHook(h: HookRow, now: string): ProjectHook {
  const flags = JSON.parse(h.events) as Flags
  const rest = PROJECT_HOOK_EVENTS.filter((e) => !(SYSTEM_HOOK_EVENTS as readonly string[]).includes(e))
  return {
    ...presentCommon(h, now),
    project_id: h.project_id!,
    ...Object.fromEntries(rest.map((e) => [e, flags[e] === true])),
  } as ProjectHook
}

export const presentHookLog = (l: HookLogRow): WebHookLog => ({
  id: l.id,
  url: l.url,
  trigger: l.trigger,
  request_headers: JSON.parse(l.request_headers) as Record<string, string>,
  request_data: JSON.parse(l.request_data) as unknown,
  response_headers: JSON.parse(l.response_headers) as Record<string, string>,
  response_body: l.response_body,
  execution_duration: l.execution_duration,
  response_status: l.response_status,
  created_at: l.created_at,
})
