// Value generators for the contract fuzz: plausible values read off each zod schema, and the hostile strings clients send.
import fc from 'fast-check'
import type { z } from 'zod'

/** Strings that have broken parsers somewhere: prototype keys, numbers past every limit, bad escapes, far dates. */
export const HOSTILE_STRINGS = [
  '', ' ', '0', '-1', '1.5', '1e3', '1e309', '0x10', 'NaN', 'Infinity', '99999999999999999999', '9007199254740993', '-9223372036854775809',
  'true', 'True', 'null', 'undefined', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf',
  '1constructor', '1__proto__', '3h30m', '-1h', '1mo 2w 3d 4h 5m', '99999999999w', 'None', 'Any',
  '2999-01-01T00:00:00Z', '0000-00-00', '2024-02-30', '1970-01-01T00:00:00Z', '%ZZ', '%', '%00', '%2F', '%2e%2e', '..', '../../etc/passwd',
  'a/b', 'a\\b', '*', '?', '--output=x', '-n1', '--upload-pack=touch x', 'HEAD', 'HEAD~99999', 'HEAD^{tree}', 'master..feature', 'master...feature',
  '@{-1}', ':/', 'refs/heads/master', '.git/config', 'a//b', '/abs', 'dir/', '.', 'a.lock', 'a b', '#', ';', ',', ',,,', '{}', '[]', '<script>', "' OR 1=1 --", '"', 'é', '😀', '\u202e', '\u0000', 'x'.repeat(300),
] as const

/** Names every plain object inherits: looked up in a `{}` they find a function, not undefined. */
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '1constructor', '2__proto__', '3toString', 'constructor.prototype']

const smallInt = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63)))

/** Values the fixture holds (ids, paths, refs): mixed into plausible values so requests reach past the lookups. */
export interface Known { ints: number[]; strings: string[] }

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Record<string, any> } })._zod.def

/** `clean` values are the right type and usually valid, to reach the handlers; `hostile` ones mix in anything. */
export type Mode = 'clean' | 'hostile'

const NAME_LIKE = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}$/)

function plausibleString(known: Known, mode: Mode): fc.Arbitrary<unknown> {
  const fromWorld = known.strings.length ? fc.constantFrom(...known.strings) : NAME_LIKE
  const shaped = fc.oneof(NAME_LIKE, fc.constantFrom('2024-01-02', '2024-01-02T03:04:05Z', '1h', '1w 2d', '#FF0000', 'red', 'Fuzz title'))
  if (mode === 'clean') return fc.oneof({ weight: 4, arbitrary: fromWorld }, { weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) })
  return fc.oneof(
    { weight: 3, arbitrary: fromWorld },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 12 }), shaped) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  )
}

/** A plausible value for a schema: right type, often a known id or name; hostile, sometimes just past a limit. */
export function plausible(schema: z.ZodType, known: Known, mode: Mode, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  switch (def.type) {
    case 'optional': case 'nullable': case 'default': case 'catch': case 'readonly':
      return plausible(def.innerType, known, mode, depth)
    case 'pipe':
      return def.out && defOf(def.out).type !== 'transform' ? plausible(def.out, known, mode, depth) : plausible(def.in, known, mode, depth)
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>))
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((o) => plausible(o, known, mode, depth)))
    case 'number':
      return known.ints.length ? fc.oneof({ weight: mode === 'clean' ? 4 : 1, arbitrary: fc.constantFrom(...known.ints) }, { weight: 1, arbitrary: smallInt }) : smallInt
    case 'boolean':
      return fc.boolean()
    case 'string':
      return plausibleString(known, mode)
    case 'array':
      return depth > 2 ? fc.constant([]) : fc.array(plausible(def.element, known, mode, depth + 1), { minLength: mode === 'clean' ? 1 : 0, maxLength: 3 })
    case 'record':
      return fc.dictionary(NAME_LIKE, fc.oneof(NAME_LIKE, fc.integer()), { maxKeys: 3 })
    case 'object':
      return depth > 2 ? fc.constant({}) : plausibleObject(def.shape, known, mode, depth + 1)
    default:
      return anyValue
  }
}

const isRequired = (schema: z.ZodType) => !['optional', 'default'].includes(defOf(schema).type)

/** Values GitLab's parameter names call for, by name: new endpoints with the same names get them without a word. */
const HINTS: [RegExp, readonly unknown[]][] = [
  [/color/, ['#FF0000', '#428bca', 'red']],
  [/duration/, ['1h', '3h30m', '1w 2d', '-30m', '2mo']],
  [/(_at|_date|^since|^until|_after|_before)$/, ['2024-01-02', '2024-01-02T03:04:05Z', '2999-01-01T00:00:00Z']],
  [/access_level/, [10, 20, 30, 40, 50]],
  [/email/, ['fuzz@example.com', 'alice@example.com']],
  [/^(branch|ref|ref_name|start_branch|tag_name)$/, ['master', 'main', 'feature', 'v1.0', 'new-branch']],
  [/^(name|title|path|username|key|new_name)$/, ['fuzz-name', 'Fuzz Title', 'bug', 'v2']],
]

function hinted(key: string, arb: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const hint = HINTS.find(([re]) => re.test(key))
  return hint ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hint[1]) }, { weight: 1, arbitrary: arb }) : arb
}

/** Keys of a shape: clean, every required key and plausible values; hostile, any keys, some values anything at all. */
export function plausibleObject(shape: Record<string, z.ZodType>, known: Known, mode: Mode, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(shape)
  if (keys.length === 0) return fc.constant({})
  const value = (k: string) => mode === 'clean'
    ? hinted(k, plausible(shape[k], known, mode, depth))
    : fc.oneof({ weight: 6, arbitrary: hinted(k, plausible(shape[k], known, mode, depth)) }, { weight: 1, arbitrary: anyValue })
  if (mode === 'hostile') return fc.record(Object.fromEntries(keys.map((k) => [k, value(k)])), { requiredKeys: [] })
  // Every optional key at once is almost never all valid: a clean object has the required keys and at most two others.
  const required = keys.filter((k) => isRequired(shape[k]))
  const optional = keys.filter((k) => !isRequired(shape[k]))
  return fc.subarray(optional, { maxLength: Math.min(2, optional.length) }).chain((picked) => fc.record(Object.fromEntries([...required, ...picked].map((k) => [k, value(k)]))))
}

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
)

/** Anything JSON can carry, hostile strings included. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, [], {}, [null], { __proto__: 1 }, JSON.parse('{"__proto__":{"x":1}}')) },
)

const pct = (c: string) => [...Buffer.from(c, 'utf8')].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('')

/** Characters a request line may carry literally (node refuses the rest): everything else is percent-encoded. */
export const rawSafe = (s: string) => s.replace(/[^\x21-\x7e]/gu, pct)

/** encodeURIComponent that also takes lone surrogates (as their UTF-8 replacement). */
export const encode = (s: string) => s.replace(/[^A-Za-z0-9\-_.!~*'()]/gu, pct)

/** A header value node will send: latin-1 without control characters. */
export const headerSafe = (s: string) => s.replace(/[^\t\x20-\x7e\x80-\xff]/gu, '?')
