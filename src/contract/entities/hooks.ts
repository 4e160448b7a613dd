// Web hook shapes: GitLab's Hook, ProjectHook and WebHookLog entities (lib/api/entities/hook.rb, project_hook.rb, web_hook_log.rb).
import { z } from 'zod'

const int = z.number().int()

/** The switches every hook has (system hooks have only these). */
export const SYSTEM_HOOK_EVENTS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'] as const

/** The switches of a project hook, in GitLab's order. */
export const PROJECT_HOOK_EVENTS = [
  'push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events', 'issues_events', 'confidential_issues_events',
  'note_events', 'confidential_note_events', 'pipeline_events', 'wiki_page_events', 'deployment_events', 'feature_flag_events',
  'job_events', 'releases_events', 'milestone_events', 'emoji_events', 'resource_access_token_events',
] as const
export type HookEventName = (typeof PROJECT_HOOK_EVENTS)[number]

/** `alert_status` of GitLab 17: executable, temporarily_disabled after repeated failures, disabled for good. */
export const ALERT_STATUSES = ['executable', 'temporarily_disabled', 'disabled'] as const

const Keys = z.array(z.object({ key: z.string() }))

export const SystemHook = z.object({
  id: int,
  url: z.string(),
  name: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
  push_events: z.boolean(),
  tag_push_events: z.boolean(),
  merge_requests_events: z.boolean(),
  repository_update_events: z.boolean(),
  enable_ssl_verification: z.boolean(),
  alert_status: z.enum(ALERT_STATUSES),
  disabled_until: z.string().nullable(),
  url_variables: Keys,
  push_events_branch_filter: z.string().nullable(),
  branch_filter_strategy: z.string(),
  custom_webhook_template: z.string().nullable(),
  custom_headers: Keys,
})
export type SystemHook = z.infer<typeof SystemHook>

export const ProjectHook = SystemHook.extend({
  project_id: int,
  issues_events: z.boolean(),
  confidential_issues_events: z.boolean(),
  note_events: z.boolean(),
  confidential_note_events: z.boolean(),
  pipeline_events: z.boolean(),
  wiki_page_events: z.boolean(),
  deployment_events: z.boolean(),
  feature_flag_events: z.boolean(),
  job_events: z.boolean(),
  releases_events: z.boolean(),
  milestone_events: z.boolean(),
  emoji_events: z.boolean(),
  resource_access_token_events: z.boolean(),
})
export type ProjectHook = z.infer<typeof ProjectHook>

/** One delivery attempt, as GitLab's hook events list shows it. */
export const WebHookLog = z.object({
  id: int,
  url: z.string(),
  trigger: z.string(),
  request_headers: z.record(z.string(), z.string()),
  request_data: z.unknown(),
  response_headers: z.record(z.string(), z.string()),
  response_body: z.string(),
  execution_duration: z.number(),
  response_status: z.string(),
  created_at: z.string(),
})
export type WebHookLog = z.infer<typeof WebHookLog>

/** What a system hook test sends and answers (GitLab's fixed project_create sample). */
export const SystemHookTest = z.object({
  event_name: z.string(), name: z.string(), path: z.string(), project_id: int, owner_name: z.string(), owner_email: z.string(),
})
