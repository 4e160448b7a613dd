// `include:` with local files of the pipeline's commit: included files merge in order, nested includes first,
// and the including file wins over what it includes (GitLab's External::Processor).
import type { PlanContext } from '../plan-types.js'
import { ConfigError } from './errors.js'
import { firstMatch, globFilter, makeFacts } from './evaluate.js'
import { applyInputs } from './inputs.js'
import { Problems } from './fields.js'
import { parseRules } from './rules.js'
import { deepMerge, isHash, loadYaml } from './yaml.js'

export interface IncludeRecord {
  type: 'local'
  location: string
}

export interface IncludeSource {
  readFile(path: string): Promise<string | null>
  listFiles(): Promise<string[]>
  /** The pipeline's facts for `include:rules`; without them (lint) rules see no variables and unknown changes. */
  ctx?: PlanContext
}

// GitLab's limit on the number of included files in one pipeline.
const MAX_INCLUDES = 150

class Includer {
  readonly records: IncludeRecord[] = []
  private readonly seen = new Set<string>()
  constructor(private readonly source: IncludeSource) {}

  async expand(config: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (!Object.hasOwn(config, 'include')) return config
    const { include, ...rest } = config
    let merged: Record<string, unknown> = {}
    for (const { location, inputs } of await this.locations(include)) {
      // The same file with other inputs is another configuration, so it is read again.
      const key = `${location}\0${JSON.stringify(inputs ?? null)}`
      if (this.seen.has(key)) continue
      this.seen.add(key)
      if (this.seen.size > MAX_INCLUDES) throw new ConfigError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`)
      this.records.push({ type: 'local', location })
      merged = deepMerge(merged, await this.expand(await this.read(location, inputs)))
    }
    return deepMerge(merged, rest)
  }

  /** `include: [{local, rules}]`: included when the first matching rule does not say never. */
  private async wanted(entry: unknown): Promise<boolean> {
    if (!isHash(entry) || entry.rules === undefined) return true
    const p = new Problems()
    const rules = parseRules(entry.rules, 'include:rules', p)
    if (!rules) throw new ConfigError(p.list[0])
    const ctx: PlanContext = this.source.ctx ?? {
      source: 'push', ref: '', tag: false, sha: '', variables: {}, changedPaths: null,
      readFile: this.source.readFile, listFiles: this.source.listFiles,
    }
    const rule = await firstMatch(rules, makeFacts(ctx), ctx.variables)
    return rule !== null && rule.when !== 'never'
  }

  private async read(location: string, inputs: unknown): Promise<Record<string, unknown>> {
    const text = await this.source.readFile(location)
    if (text === null) throw new ConfigError(`Local file \`${location}\` does not exist!`)
    if (text.trim() === '') throw new ConfigError(`Local file \`${location}\` is empty!`)
    const loaded = await loadYaml(text)
    if (!loaded.ok || !isHash(loaded.value)) {
      throw new ConfigError(`Included file \`${location}\` does not have valid YAML syntax!`)
    }
    try {
      return applyInputs(loaded.header, loaded.value, inputs) as Record<string, unknown>
    } catch (e) {
      if (e instanceof ConfigError) throw new ConfigError(`\`${location}\`: ${e.message}`)
      throw e
    }
  }

  /** The local paths one `include:` value names, wildcards expanded over the commit's files. */
  private async locations(include: unknown): Promise<Array<{ location: string; inputs: unknown }>> {
    const entries = Array.isArray(include) ? include : [include]
    const out: Array<{ location: string; inputs: unknown }> = []
    for (const entry of entries) {
      const path = localPath(entry)
      if (!(await this.wanted(entry))) continue
      if (!/\.ya?ml$/.test(path)) throw new ConfigError(`Included file \`${path}\` does not have YAML extension!`)
      const inputs = isHash(entry) ? entry.inputs : undefined
      if (!path.includes('*')) { out.push({ location: path, inputs }); continue }
      const found = globFilter([path], await this.source.listFiles()).sort()
      if (found.length === 0) throw new ConfigError(`Local file \`${path}\` does not exist!`)
      out.push(...found.map((location) => ({ location, inputs })))
    }
    return out
  }
}

/** Local includes name paths from the repository root, with or without a leading `/` or `./`. */
const rootRelative = (path: string) => path.replace(/^(?:\.?\/)+/, '')

function localPath(entry: unknown): string {
  if (typeof entry === 'string') {
    if (/^https?:\/\//.test(entry)) throw new ConfigError(`Remote file \`${entry}\` could not be fetched: remote includes are not supported`)
    return rootRelative(entry)
  }
  if (isHash(entry) && typeof entry.local === 'string') return rootRelative(entry.local)
  const kind = isHash(entry) ? ['remote', 'project', 'template', 'component', 'artifact'].find((k) => k in entry) : undefined
  if (kind) throw new ConfigError(`Include \`${kind}\` is not supported: only local files can be included`)
  throw new ConfigError(`Include \`${JSON.stringify(entry)}\` needs to match exactly one accessor!`)
}

/** The config with every include merged in, and the files read in the order GitLab lists them. */
export async function expandIncludes(config: Record<string, unknown>, source: IncludeSource) {
  const includer = new Includer(source)
  const expanded = await includer.expand(config)
  return { config: expanded, includes: includer.records }
}
