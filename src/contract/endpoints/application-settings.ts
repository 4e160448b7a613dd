// The Application settings API of api-v4.md (administrators only): read the one record, change any of its settings.
import { z } from 'zod'
import { SETTING_KINDS, type SettingKind, type SettingName } from '../application-settings.js'
import { defineEndpoint } from '../define.js'
import { ApplicationSettings } from '../entities/application-settings.js'
import { bool, int, list, oneOf, str, text } from '../params.js'

/** `0.5`, `"0.5"` or `"1"`: GitLab's BigDecimal and Float parameters. */
const decimal = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(v) ? Number(v) : v),
    z.number({ error: 'is invalid' }).refine(Number.isFinite, { error: 'is invalid' }),
  )

// GitLab splits domain lists typed into a text area on commas, semicolons and whitespace.
const DOMAIN_SEPARATOR = /\s*[,;]\s*|\s+/
const domains = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.split(DOMAIN_SEPARATOR).filter(Boolean) : v),
    list(str()),
  ).nullable()

const VISIBILITY = ['private', 'internal', 'public'] as const

const INPUT: Record<SettingKind, () => z.ZodType> = {
  boolean: () => bool(),
  integer: () => int(),
  decimal: () => decimal(),
  string: () => str(2048).nullable(),
  text: () => text().nullable(),
  array: () => list(str()).nullable(),
}

const special: Partial<Record<SettingName, z.ZodType>> = {
  default_group_visibility: oneOf(VISIBILITY),
  default_project_visibility: oneOf(VISIBILITY),
  default_snippet_visibility: oneOf(VISIBILITY),
  // `nil` (or nothing) allows both protocols.
  enabled_git_access_protocol: oneOf(['ssh', 'http', 'nil', '']).nullable(),
  domain_whitelist: domains(),
  domain_blacklist: domains(),
  jobqueue_throttling_factor: decimal().nullable(),
}

export const SettingsInput = Object.fromEntries(
  Object.entries(SETTING_KINDS).map(([name, kind]) => [name, (special[name as SettingName] ?? INPUT[kind]()).optional()]),
) as Record<SettingName, z.ZodOptional<z.ZodType>>

export type SettingsUpdate = { [K in SettingName]?: unknown }

export const getApplicationSettings = defineEndpoint({
  method: 'GET', path: '/application/settings', summary: 'Get the current application settings', auth: 'admin',
  responses: { 200: ApplicationSettings },
})

export const updateApplicationSettings = defineEndpoint({
  method: 'PUT', path: '/application/settings', summary: 'Change application settings', auth: 'admin',
  input: SettingsInput, responses: { 200: ApplicationSettings },
})
