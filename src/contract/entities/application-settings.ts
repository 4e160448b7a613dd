// The application settings record of api-v4.md §Application settings: id 1, timestamps, and every setting.
import { z } from 'zod'
import { SETTING_KINDS, type SettingKind, type SettingName } from '../application-settings.js'

const OUTPUT: Record<SettingKind, z.ZodType> = {
  boolean: z.boolean(),
  integer: z.number().int(),
  decimal: z.number(),
  string: z.string().nullable(),
  text: z.string().nullable(),
  array: z.array(z.string()).nullable(),
}

const settingShapes = Object.fromEntries(Object.entries(SETTING_KINDS).map(([name, kind]) => [name, OUTPUT[kind]])) as Record<SettingName, z.ZodType>

export const ApplicationSettings = z.object({
  id: z.literal(1),
  created_at: z.string(),
  updated_at: z.string(),
  ...settingShapes,
  jobqueue_throttling_factor: z.number().nullable(),
})
export type ApplicationSettings = z.infer<typeof ApplicationSettings>
