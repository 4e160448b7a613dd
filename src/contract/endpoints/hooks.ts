// Project hooks (lib/api/project_hooks.rb, Maintainers) and system hooks (lib/api/system_hooks.rb, administrators).
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { PROJECT_HOOK_EVENTS, ProjectHook, SYSTEM_HOOK_EVENTS, SystemHook, SystemHookTest, WebHookLog } from '../entities/hooks.js'
import { bool, int, list, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
const ProjectHookRef = { ...Id, hook_id: int() }
const SystemHookRef = { hook_id: int() }

const KeyValue = z.object({ key: str(), value: str(2048) }, { error: 'is invalid' })
const Common = {
  name: str().nullable().optional(),
  description: text().nullable().optional(),
  token: str().nullable().optional(),
  enable_ssl_verification: bool().optional(),
  push_events_branch_filter: str(5000).nullable().optional(),
  branch_filter_strategy: oneOf(['wildcard', 'regex', 'all_branches']).optional(),
  custom_webhook_template: text().nullable().optional(),
  url_variables: list(KeyValue).optional(),
  custom_headers: list(KeyValue).optional(),
}
const switches = <T extends readonly string[]>(names: T) =>
  Object.fromEntries(names.map((n) => [n, bool().optional()])) as { [K in T[number]]: z.ZodOptional<ReturnType<typeof bool>> }
const ProjectFields = { ...Common, ...switches(PROJECT_HOOK_EVENTS) }
const SystemFields = { ...Common, ...switches(SYSTEM_HOOK_EVENTS) }

/** GitLab 17's triggers of POST …/hooks/:hook_id/test/:trigger. */
export const TEST_TRIGGERS = [
  'push_events', 'tag_push_events', 'issues_events', 'confidential_issues_events', 'note_events', 'confidential_note_events',
  'merge_requests_events', 'job_events', 'pipeline_events', 'wiki_page_events', 'releases_events', 'emoji_events',
  'resource_access_token_events', 'deployment_events', 'feature_flag_events', 'milestone_events',
] as const
const Created = z.object({ message: z.string() })

export const listProjectHooks = defineEndpoint({
  method: 'GET', path: '/projects/:id/hooks', summary: "List a project's webhooks", paginated: true, params: Id,
  responses: { 200: z.array(ProjectHook) },
})

export const getProjectHook = defineEndpoint({
  method: 'GET', path: '/projects/:id/hooks/:hook_id', summary: 'Get a project webhook', params: ProjectHookRef,
  responses: { 200: ProjectHook },
})

export const createProjectHook = defineEndpoint({
  method: 'POST', path: '/projects/:id/hooks', summary: 'Add a webhook to a project', params: Id,
  input: { url: str(2048), ...ProjectFields }, responses: { 201: ProjectHook },
})

export const updateProjectHook = defineEndpoint({
  method: 'PUT', path: '/projects/:id/hooks/:hook_id', summary: 'Edit a project webhook', params: ProjectHookRef,
  input: { url: str(2048).optional(), ...ProjectFields }, responses: { 200: ProjectHook },
})

export const deleteProjectHook = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/hooks/:hook_id', summary: 'Delete a project webhook', params: ProjectHookRef,
  responses: { 204: null },
})

export const listProjectHookEvents = defineEndpoint({
  method: 'GET', path: '/projects/:id/hooks/:hook_id/events', summary: "List a project webhook's deliveries (newest first)",
  paginated: true, params: ProjectHookRef, input: { status: list(z.union([int(), oneOf(['successful', 'client_failure', 'server_failure'])])).optional() },
  responses: { 200: z.array(WebHookLog) },
})

export const resendProjectHookEvent = defineEndpoint({
  method: 'POST', path: '/projects/:id/hooks/:hook_id/events/:hook_event_id/resend', summary: 'Deliver a logged webhook event again',
  params: { ...ProjectHookRef, hook_event_id: int() }, responses: { 201: z.object({ response_status: z.string() }) },
})

export const testProjectHook = defineEndpoint({
  method: 'POST', path: '/projects/:id/hooks/:hook_id/test/:trigger', summary: 'Send a sample event to a project webhook',
  params: { ...ProjectHookRef, trigger: oneOf(TEST_TRIGGERS) }, responses: { 201: Created },
})

export const listSystemHooks = defineEndpoint({
  method: 'GET', path: '/hooks', summary: 'List system hooks', auth: 'admin', paginated: true, responses: { 200: z.array(SystemHook) },
})

export const getSystemHook = defineEndpoint({
  method: 'GET', path: '/hooks/:hook_id', summary: 'Get a system hook', auth: 'admin', params: SystemHookRef, responses: { 200: SystemHook },
})

export const createSystemHook = defineEndpoint({
  method: 'POST', path: '/hooks', summary: 'Add a system hook', auth: 'admin', input: { url: str(2048), ...SystemFields },
  responses: { 201: SystemHook },
})

export const updateSystemHook = defineEndpoint({
  method: 'PUT', path: '/hooks/:hook_id', summary: 'Edit a system hook', auth: 'admin', params: SystemHookRef,
  input: { url: str(2048).optional(), ...SystemFields }, responses: { 200: SystemHook },
})

export const testSystemHook = defineEndpoint({
  method: 'POST', path: '/hooks/:hook_id', summary: 'Send the sample project_create event to a system hook', auth: 'admin',
  params: SystemHookRef, responses: { 201: SystemHookTest },
})

export const deleteSystemHook = defineEndpoint({
  method: 'DELETE', path: '/hooks/:hook_id', summary: 'Delete a system hook', auth: 'admin', params: SystemHookRef, responses: { 204: null },
})

// URL variables (`{name}` in the URL) and custom headers, set and unset one key at a time; values are never read back.
const pairEndpoints = <P extends typeof ProjectHookRef | typeof SystemHookRef>(base: string, params: P, noun: 'url_variables' | 'custom_headers') => {
  const keyed = { ...params, key: str() }
  return {
    set: defineEndpoint({
      method: 'PUT', path: `${base}/${noun}/:key`, summary: `Set a webhook's ${noun.replace('_', ' ')} entry`, params: keyed,
      input: { value: str(2048) }, responses: { 204: null },
    }),
    unset: defineEndpoint({
      method: 'DELETE', path: `${base}/${noun}/:key`, summary: `Delete a webhook's ${noun.replace('_', ' ')} entry`, params: keyed, responses: { 204: null },
    }),
  }
}
const projectVariables = pairEndpoints('/projects/:id/hooks/:hook_id', ProjectHookRef, 'url_variables')
const projectHeaders = pairEndpoints('/projects/:id/hooks/:hook_id', ProjectHookRef, 'custom_headers')
const systemVariables = pairEndpoints('/hooks/:hook_id', SystemHookRef, 'url_variables')
const systemHeaders = pairEndpoints('/hooks/:hook_id', SystemHookRef, 'custom_headers')
export const setProjectHookUrlVariable = projectVariables.set
export const deleteProjectHookUrlVariable = projectVariables.unset
export const setProjectHookCustomHeader = projectHeaders.set
export const deleteProjectHookCustomHeader = projectHeaders.unset
export const setSystemHookUrlVariable = { ...systemVariables.set, auth: 'admin' as const }
export const deleteSystemHookUrlVariable = { ...systemVariables.unset, auth: 'admin' as const }
export const setSystemHookCustomHeader = { ...systemHeaders.set, auth: 'admin' as const }
export const deleteSystemHookCustomHeader = { ...systemHeaders.unset, auth: 'admin' as const }
