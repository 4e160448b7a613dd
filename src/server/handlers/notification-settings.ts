// Notification settings: global, per group, per project.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { findVisibleGroup } from '../services/groups/index.js'
import * as settings from '../services/users/index.js'
import { findVisibleProject } from '../services/projects/index.js'

const GLOBAL = { kind: 'global', id: 0 } as const

export const notificationSettingHandlers = {
  getGlobalNotificationSettings: (_input, ctx) => {
    const row = settings.currentSetting(ctx, GLOBAL)
    return { status: 200, body: { ...settings.presentSetting(row), notification_email: row.notification_email ?? ctx.user!.email } }
  },
  updateGlobalNotificationSettings: (input, ctx) => {
    const row = settings.updateSetting(ctx, GLOBAL, input)
    return { status: 200, body: { ...settings.presentSetting(row), notification_email: row.notification_email ?? ctx.user!.email } }
  },
  getGroupNotificationSettings: (input, ctx) =>
    ({ status: 200, body: settings.presentSetting(settings.currentSetting(ctx, { kind: 'group', id: findVisibleGroup(ctx, input.id).id })) }),
  updateGroupNotificationSettings: (input, ctx) => {
    const { id, ...fields } = input
    return { status: 200, body: settings.presentSetting(settings.updateSetting(ctx, { kind: 'group', id: findVisibleGroup(ctx, id).id }, fields)) }
  },
  getProjectNotificationSettings: (input, ctx) =>
    ({ status: 200, body: settings.presentSetting(settings.currentSetting(ctx, { kind: 'project', id: findVisibleProject(ctx, input.id).id })) }),
  updateProjectNotificationSettings: (input, ctx) => {
    const { id, ...fields } = input
    return { status: 200, body: settings.presentSetting(settings.updateSetting(ctx, { kind: 'project', id: findVisibleProject(ctx, id).id }, fields)) }
  },
} satisfies Handlers<typeof contract.notificationSettings>
