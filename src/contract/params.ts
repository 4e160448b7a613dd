// GitLab's parameter rules as zod types: lenient booleans, integers from strings, CSV-or-array lists, `:id` as id or path.
import { z } from 'zod'

const TRUE = new Set(['true', 't', 'yes', 'y', 'on', '1'])
const FALSE = new Set(['false', 'f', 'no', 'n', 'off', '0', ''])

/** python-gitlab sends `True`/`False`, gitbeaker `true`, curl users `1`: all are booleans. */
export const bool = () =>
  z.preprocess((v) => {
    if (typeof v === 'boolean') return v
    if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : v
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase()
      if (TRUE.has(s)) return true
      if (FALSE.has(s)) return false
    }
    return v
  }, z.boolean({ error: 'is invalid' }))

const toInt = (v: unknown) => {
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v)
  return v
}

export const int = () => z.preprocess(toInt, z.number({ error: 'is invalid' }).int({ error: 'is invalid' }).safe({ error: 'is invalid' }))

/** Strings arrive as JSON numbers from some clients (`namespace: 12`); GitLab coerces them. */
export const str = (max = 255) =>
  z.preprocess(
    (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
    z.string({ error: 'is invalid' }).max(max, { error: `is too long (maximum is ${max} characters)` }),
  )

export const text = () => str(1_000_000)

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v : v), z.enum(values, { error: 'does not have a valid value' }))

/** Arrays come as `name[]=a&name[]=b`, a JSON array, or a comma-separated string. */
export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    // Absent stays absent, so a required list answers `"x" not given` rather than an error about `[undefined]`.
    if (v === undefined) return v
    if (Array.isArray(v)) return v
    if (typeof v === 'string') return v === '' ? [] : v.split(',').map((s) => s.trim())
    if (v !== null && typeof v === 'object') return Object.values(v)
    return [v]
  }, z.array(item, { error: 'is invalid' }))

/** `name[key]=value` hashes. */
export const hash = () => z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: 'is invalid' })

export const isoDate = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: 'is invalid' }).refine((s) => !Number.isNaN(Date.parse(s)), { error: 'is invalid' }),
  )

/** `YYYY-MM-DD` naming a real day: `2030-02-31` would otherwise never compare as past and never expire. */
export const dateOnly = () =>
  z.string({ error: 'is invalid' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'is invalid' })
    .refine((s) => {
      const day = new Date(`${s}T00:00:00Z`)
      return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === s
    }, { error: 'is invalid' })

/** A project or group reference: an integer id or a full path (already URL-decoded by the router). */
export const ref = () => str(1024).refine((s) => s.length > 0, { error: 'is invalid' })

export type IdOrPath = { id: number } | { path: string }
export function parseIdOrPath(value: string | number): IdOrPath {
  if (typeof value === 'number') return { id: value }
  return /^\d+$/.test(value) ? { id: Number(value) } : { path: value }
}

export const page = () =>
  z.preprocess(toInt, z.number({ error: 'is invalid' }).int({ error: 'is invalid' })).optional()

export const Pagination = { page: page(), per_page: page() }
