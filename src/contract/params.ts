// GitLab's parameter rules as zod types: lenient booleans, integers from strings, CSV-or-array lists, `:id` as id or path.
// A rule is built once and shared by every endpoint using it (zod schemas are immutable): the contract's thousand-odd
// parameters would otherwise build several zod objects each when the server starts.
import { z } from 'zod'

/** The value `make` returns, made on the first call. */
const shared = <T>(make: () => T) => {
  let made: T | undefined
  return () => (made ??= make())
}

/** One value per key, made on first use. */
const sharedBy = <K, T>(make: (key: K) => T) => {
  const made = new Map<K, T>()
  return (key: K) => {
    let value = made.get(key)
    if (value === undefined) made.set(key, (value = make(key)))
    return value
  }
}

const TRUE = new Set(['true', 't', 'yes', 'y', 'on', '1'])
const FALSE = new Set(['false', 'f', 'no', 'n', 'off', '0', ''])

/** python-gitlab sends `True`/`False`, gitbeaker `true`, curl users `1`: all are booleans. */
export const bool = shared(() =>
  z.preprocess((v) => {
    if (typeof v === 'boolean') return v
    if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : v
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase()
      if (TRUE.has(s)) return true
      if (FALSE.has(s)) return false
    }
    return v
  }, z.boolean({ error: 'is invalid' })))

const toInt = (v: unknown) => {
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v)
  return v
}

export const int = shared(() => z.preprocess(toInt, z.number({ error: 'is invalid' }).int({ error: 'is invalid' }).safe({ error: 'is invalid' })))

/** Strings arrive as JSON numbers from some clients (`namespace: 12`); GitLab coerces them. */
const strOf = sharedBy((max: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v),
    z.string({ error: 'is invalid' }).max(max, { error: `is too long (maximum is ${max} characters)` }),
  ))
export const str = (max = 255) => strOf(max)

export const text = () => str(1_000_000)

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v : v), z.enum(values, { error: 'does not have a valid value' }))
const enums = sharedBy((key: string) => enumOf(JSON.parse(key) as [string, ...string[]]))
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => enums(JSON.stringify(values)) as unknown as ReturnType<typeof enumOf<T>>

/** Arrays come as `name[]=a&name[]=b`, a JSON array, or a comma-separated string. */
const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    // Absent stays absent, so a required list answers `"x" not given` rather than an error about `[undefined]`.
    if (v === undefined) return v
    if (Array.isArray(v)) return v
    if (typeof v === 'string') return v === '' ? [] : v.split(',').map((s) => s.trim())
    if (v !== null && typeof v === 'object') return Object.values(v)
    return [v]
  }, z.array(item, { error: 'is invalid' }))
const lists = sharedBy((item: z.ZodType) => listOf(item))
export const list = <T extends z.ZodType>(item: T) => lists(item) as ReturnType<typeof listOf<T>>

/** `name[key]=value` hashes. */
export const hash = shared(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: 'is invalid' }))

export const isoDate = shared(() =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: 'is invalid' }).refine((s) => !Number.isNaN(Date.parse(s)), { error: 'is invalid' }),
  ))

/** `YYYY-MM-DD` naming a real day: `2030-02-31` would otherwise never compare as past and never expire. */
export const dateOnly = shared(() =>
  z.string({ error: 'is invalid' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'is invalid' })
    .refine((s) => {
      const day = new Date(`${s}T00:00:00Z`)
      return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === s
    }, { error: 'is invalid' }))

/** A project or group reference: an integer id or a full path (already URL-decoded by the router). */
export const ref = shared(() => str(1024).refine((s) => s.length > 0, { error: 'is invalid' }))

export type IdOrPath = { id: number } | { path: string }
export function parseIdOrPath(value: string | number): IdOrPath {
  if (typeof value === 'number') return { id: value }
  return /^\d+$/.test(value) ? { id: Number(value) } : { path: value }
}

export const page = shared(() =>
  z.preprocess(toInt, z.number({ error: 'is invalid' }).int({ error: 'is invalid' })).optional())

export const Pagination = { page: page(), per_page: page() }
