// GitLab's fixed lists of values that the server's rules read as well as the endpoints' schemas: kept apart from the
// endpoint modules so that a rule reading one does not load those modules' zod schemas at a server's start.

/** Environment::TIERS: an environment's `tier`, also a CI job's `environment:deployment_tier`. */
export const ENVIRONMENT_TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const

/** NotificationSetting::EMAIL_EVENTS of GitLab 17 (without the EE-only new_epic). */
export const NOTIFICATION_EVENTS = [
  'new_release', 'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request', 'change_reviewer_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project', 'merge_when_pipeline_succeeds',
] as const
