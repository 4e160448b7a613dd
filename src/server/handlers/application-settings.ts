// The Application settings API (administrators only; the mount answers 403 to anyone else).
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentApplicationSettings } from '../present/application-settings.js'
import { settingsRecord, updateSettings } from '../services/instance/index.js'

export const applicationSettingsHandlers = {
  getApplicationSettings: (_input, ctx) => ({ status: 200, body: presentApplicationSettings(settingsRecord(ctx.app)) }),
  updateApplicationSettings: (input, ctx) => ({ status: 200, body: presentApplicationSettings(updateSettings(ctx, input)) }),
} satisfies Handlers<typeof contract.applicationSettings>
