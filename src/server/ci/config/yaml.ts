// Reads one CI YAML text into plain data as GitLab's Psych (YAML 1.1) does: `yes`/`on`/`off` are booleans, 0755 is
// octal, merge keys (`<<: *anchor`) work and a later duplicate key wins. GitLab's `!reference` tag becomes a marker
// resolved after `extends`. The yaml package is evaluated by the first config read, not at every server start.
import type * as Yaml from 'yaml'
import type { CollectionTag, ScalarTag, Tags } from 'yaml'

type YamlPackage = typeof Yaml
let loading: Promise<YamlPackage> | undefined
const yamlPackage = () => (loading ??= import('yaml'))

export class ReferenceTag {
  constructor(readonly path: unknown[]) {}
  toString() {
    return `!reference [${this.path.map((p) => JSON.stringify(String(p))).join(', ')}]`
  }
}

const referenceSeq = ({ Scalar }: YamlPackage): CollectionTag => ({
  tag: '!reference',
  collection: 'seq',
  resolve: (seq) => new Scalar(new ReferenceTag(seq.toJSON() as unknown[])),
})

// `!reference .a` is not a valid reference; kept as a marker so that resolution reports it.
const referenceScalar: ScalarTag = {
  tag: '!reference',
  resolve: (text) => new ReferenceTag([text]),
}

// Psych's booleans: yes/true/on and no/false/off in any case, but not YAML 1.1's y and n.
const PSYCH_TRUE = /^(?:yes|true|on)$/i
const PSYCH_FALSE = /^(?:no|false|off)$/i
// safe_load refuses dates and the other typed collections; as plain strings they can still be reported or used.
const DROPPED = new Set(['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:binary', 'tag:yaml.org,2002:omap', 'tag:yaml.org,2002:pairs', 'tag:yaml.org,2002:set'])

function psychTags(yaml: YamlPackage, tags: Tags): Tags {
  const out: Tags = []
  for (const tag of tags) {
    const t = tag as ScalarTag
    if (DROPPED.has(t.tag)) continue
    if (t.tag === 'tag:yaml.org,2002:bool' && t.test) out.push({ ...t, test: t.test.test('true') ? PSYCH_TRUE : PSYCH_FALSE })
    else out.push(tag)
  }
  return [...out, referenceSeq(yaml), referenceScalar]
}

/** `header` is the `spec:` document before `---`, or null. */
export type YamlResult = { ok: true; value: unknown; header: unknown } | { ok: false; error: string }

const isSpecHeader = (v: unknown) => isHash(v) && Object.keys(v).length === 1 && 'spec' in v

/**
 * Psych names the source `(<unknown>)` and says where the error is; the yaml package says it in its own words.
 * A `spec:` header document before `---` is returned apart; otherwise, as Psych.load does, the first document is the
 * config.
 */
export async function loadYaml(text: string): Promise<YamlResult> {
  const yaml = await yamlPackage()
  const lines = new yaml.LineCounter()
  const parsed = yaml.parseAllDocuments(text, {
    lineCounter: lines,
    version: '1.1',
    merge: true,
    uniqueKeys: false,
    customTags: (tags) => psychTags(yaml, tags),
    prettyErrors: false,
  })
  const docs = Array.isArray(parsed) ? parsed : []
  const broken = docs.find((d) => d.errors.length > 0)
  if (broken) {
    const err = broken.errors[0]
    const pos = lines.linePos(err.pos[0])
    const where = ` at line ${pos.line} column ${pos.col}`
    return { ok: false, error: `(<unknown>): ${err.message.split('\n')[0]}${where}` }
  }
  try {
    const values = docs.map((d) => d.toJS({ maxAliasCount: 1000 }) as unknown)
    if (values.length > 1 && isSpecHeader(values[0])) return { ok: true, value: values[1], header: values[0] }
    return { ok: true, value: values[0] ?? null, header: null }
  } catch (e) {
    // toJS refuses alias bombs (too many alias expansions) by throwing.
    return { ok: false, error: `(<unknown>): ${(e as Error).message.split('\n')[0]}` }
  }
}

/**
 * Ruby's Hash#to_yaml, which a lint's merged_yaml is: a document marker, block style, sequences not indented under
 * keys, YAML 1.1 look-alikes (`'yes'`, `'0755'`) single-quoted, nil as nothing. Null for a structure too deep to print.
 */
export async function toRubyYaml(value: unknown): Promise<string | null> {
  const { stringify } = await yamlPackage()
  try {
    return `---\n${stringify(value, { indentSeq: false, lineWidth: 0, version: '1.1', singleQuote: true, nullStr: '' })}`
  } catch {
    return null
  }
}

export const isHash = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ReferenceTag)

/** Ruby's Hash#deep_merge: nested hashes merge, everything else (arrays included) is replaced. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(base)) setKey(out, k, v)
  for (const [k, v] of Object.entries(over)) {
    const b = Object.hasOwn(out, k) ? out[k] : undefined
    setKey(out, k, isHash(b) && isHash(v) ? deepMerge(b, v) : v)
  }
  return out
}

/** Keys come from the file: `__proto__` must stay a plain key, never reach the prototype. */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true })
}
