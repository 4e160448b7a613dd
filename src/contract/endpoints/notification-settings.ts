// Notification settings (lib/api/notification_settings.rb): the caller's global setting, and one per group and project.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { NOTIFICATION_EVENTS } from '../fixed-values.js'
import { bool, ref, str } from '../params.js'

const Events = z.record(z.string(), z.boolean())
export const NotificationSetting = z.object({ level: z.string(), events: Events.optional() })
export const GlobalNotificationSetting = NotificationSetting.extend({ notification_email: z.string().nullable() })

// The level is checked by the service: GitLab answers a wrong one with the enum's own words, not a field error.
const eventFlags = Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, bool().optional()])) as
  Record<(typeof NOTIFICATION_EVENTS)[number], z.ZodOptional<ReturnType<typeof bool>>>
const SettingInput = { level: str().optional(), ...eventFlags }

export const getGlobalNotificationSettings = defineEndpoint({
  method: 'GET', path: '/notification_settings', summary: "Get the caller's global notification settings", scope: 'user',
  responses: { 200: GlobalNotificationSetting },
})

export const updateGlobalNotificationSettings = defineEndpoint({
  method: 'PUT', path: '/notification_settings', summary: "Change the caller's global notification settings",
  input: { ...SettingInput, notification_email: str().optional() }, responses: { 200: GlobalNotificationSetting },
})

export const getGroupNotificationSettings = defineEndpoint({
  method: 'GET', path: '/groups/:id/notification_settings', summary: "Get the caller's notification settings for a group",
  scope: 'read', params: { id: ref() }, responses: { 200: NotificationSetting },
})

export const updateGroupNotificationSettings = defineEndpoint({
  method: 'PUT', path: '/groups/:id/notification_settings', summary: "Change the caller's notification settings for a group",
  params: { id: ref() }, input: SettingInput, responses: { 200: NotificationSetting },
})

export const getProjectNotificationSettings = defineEndpoint({
  method: 'GET', path: '/projects/:id/notification_settings', summary: "Get the caller's notification settings for a project",
  scope: 'read', params: { id: ref() }, responses: { 200: NotificationSetting },
})

export const updateProjectNotificationSettings = defineEndpoint({
  method: 'PUT', path: '/projects/:id/notification_settings', summary: "Change the caller's notification settings for a project",
  params: { id: ref() }, input: SettingInput, responses: { 200: NotificationSetting },
})
