// `extends` (GitLab's Config::Extendable) and then `!reference` tags (Config::Yaml::Tags::Resolver), in that order.
import { ConfigError } from './errors.js'
import { deepMerge, isHash, ReferenceTag, setKey } from './yaml.js'

const MAX_NESTING_LEVELS = 10

function extendsKeys(key: string, value: Record<string, unknown>): string[] | null {
  const ext = value.extends
  if (ext === undefined || ext === null) return null
  const list = Array.isArray(ext) ? ext : [ext]
  if (!list.every((k) => typeof k === 'string')) throw new ConfigError(`jobs:${key} extends should be an array of strings or a string`)
  return list
}

class Extender {
  private readonly done = new Set<string>()
  constructor(private readonly context: Record<string, unknown>) {}

  resolve(key: string, ancestors: string[]): Record<string, unknown> {
    const value = this.context[key] as Record<string, unknown>
    const bases = extendsKeys(key, value)
    if (this.done.has(key) || bases === null) return value
    const unknown = bases.filter((b) => !Object.hasOwn(this.context, b))
    if (unknown.length) throw new ConfigError(`${key}: unknown keys in \`extends\` (${unknown.join(', ')})`)
    const invalid = bases.filter((b) => !isHash(this.context[b]))
    if (invalid.length) throw new ConfigError(`${key}: invalid base hashes in \`extends\` (${invalid.join(', ')})`)
    if (ancestors.length > MAX_NESTING_LEVELS) throw new ConfigError(`${key}: nesting too deep in \`extends\``)
    if (ancestors.includes(key)) throw new ConfigError(`${key}: circular dependency detected in \`extends\``)
    let merged: Record<string, unknown> = {}
    for (const base of bases) merged = deepMerge(merged, this.resolve(base, [...ancestors, key]))
    const result = deepMerge(merged, value)
    this.context[key] = result
    this.done.add(key)
    return result
  }
}

/** Every hash with `extends` gets its bases deep-merged under it, bases in order, multi-level. */
export function resolveExtends(config: Record<string, unknown>): Record<string, unknown> {
  const context: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(config)) setKey(context, k, v)
  const extender = new Extender(context)
  for (const [key, value] of Object.entries(context)) {
    if (isHash(value) && extendsKeys(key, value) !== null) extender.resolve(key, [])
  }
  return context
}

function lookup(config: Record<string, unknown>, tag: ReferenceTag): unknown {
  let node: unknown = config
  for (const part of tag.path) {
    if (!isHash(node) || !Object.hasOwn(node, String(part))) throw new ConfigError(`${tag} could not be found`)
    node = node[String(part)]
  }
  return node
}

function resolveNode(config: Record<string, unknown>, node: unknown, depth: number): unknown {
  if (node instanceof ReferenceTag) {
    if (depth >= MAX_NESTING_LEVELS) throw new ConfigError(`${node} is nested too deep`)
    if (node.path.length === 0 || node.path.some((p) => typeof p !== 'string')) {
      throw new ConfigError(`${node} is not a valid reference`)
    }
    return resolveNode(config, lookup(config, node), depth + 1)
  }
  if (Array.isArray(node)) return node.map((n) => resolveNode(config, n, depth))
  if (isHash(node)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(node)) setKey(out, k, resolveNode(config, v, depth))
    return out
  }
  return node
}

/** `!reference [job, key, …]` replaced by the value it names (itself resolved), after `extends`. */
export function resolveReferences(config: Record<string, unknown>): Record<string, unknown> {
  return resolveNode(config, config, 0) as Record<string, unknown>
}
