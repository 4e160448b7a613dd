// Reads one CI YAML text into plain data: GitLab's `!reference` tag becomes a marker resolved after `extends`,
// merge keys (`<<: *anchor`) work as in Psych, and a later duplicate key wins as it does there.
import { LineCounter, parseAllDocuments, Scalar, type CollectionTag, type ScalarTag } from 'yaml'

export class ReferenceTag {
  constructor(readonly path: unknown[]) {}
  toString() {
    return `!reference [${this.path.map((p) => JSON.stringify(String(p))).join(', ')}]`
  }
}

const referenceSeq: CollectionTag = {
  tag: '!reference',
  collection: 'seq',
  resolve: (seq) => new Scalar(new ReferenceTag(seq.toJSON() as unknown[])),
}

// `!reference .a` is not a valid reference; kept as a marker so that resolution reports it.
const referenceScalar: ScalarTag = {
  tag: '!reference',
  resolve: (text) => new ReferenceTag([text]),
}

/** `header` is the `spec:` document before `---`, or null. */
export type YamlResult = { ok: true; value: unknown; header: unknown } | { ok: false; error: string }

const isSpecHeader = (v: unknown) => isHash(v) && Object.keys(v).length === 1 && 'spec' in v

/**
 * Psych names the source `(<unknown>)` and says where the error is; the yaml package says it in its own words.
 * A `spec:` header document before `---` is returned apart; otherwise, as Psych.load does, the first document is the
 * config.
 */
export function loadYaml(text: string): YamlResult {
  const lines = new LineCounter()
  const parsed = parseAllDocuments(text, {
    lineCounter: lines,
    merge: true,
    uniqueKeys: false,
    customTags: [referenceSeq, referenceScalar],
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
