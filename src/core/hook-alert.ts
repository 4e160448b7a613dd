// Whether a webhook is delivered to: GitLab's WebHooks::AutoDisabling, as its `alert_status` shows it.
export type HookAlertStatus = 'executable' | 'temporarily_disabled' | 'disabled'

/** `now` is an ISO timestamp, compared with the hook's `disabled_until` as text. */
export function hookAlertStatus(hook: { permanently_disabled: number | boolean; disabled_until: string | null }, now: string): HookAlertStatus {
  if (hook.permanently_disabled) return 'disabled'
  return hook.disabled_until && hook.disabled_until > now ? 'temporarily_disabled' : 'executable'
}
