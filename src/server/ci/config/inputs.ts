// `spec:inputs` headers and `$[[ inputs.name ]]` interpolation (GitLab's Ci::Config::Interpolation), for files
// included with `inputs:` and for the main file with its defaults.
import { ConfigError } from './errors.js'
import { isHash, setKey } from './yaml.js'

type InputValue = string | number | boolean | unknown[]

const TYPES = ['string', 'number', 'boolean', 'array'] as const
const BLOCK = /\$\[\[\s*(.*?)\s*\]\]/g
const MAX_FUNCTIONS = 3

function typeOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : typeof v
}

/** Given inputs checked against the spec, defaults filled in; GitLab's wording for each refusal. */
function resolveInputs(spec: unknown, given: Record<string, unknown>): Map<string, InputValue> {
  const declared = isHash(spec) && isHash(spec.inputs) ? spec.inputs : {}
  const unknown = Object.keys(given).filter((k) => !Object.hasOwn(declared, k))
  if (unknown.length) throw new ConfigError(`unknown input arguments: ${unknown.join(', ')}`)
  const out = new Map<string, InputValue>()
  for (const [name, raw] of Object.entries(declared)) {
    const decl = isHash(raw) ? raw : {}
    const type = (decl.type as string | undefined) ?? 'string'
    if (!(TYPES as readonly string[]).includes(type)) throw new ConfigError(`header:spec:inputs:${name} input type unknown value: ${type}`)
    const value = Object.hasOwn(given, name) ? given[name] : decl.default
    if (value === undefined) throw new ConfigError(`\`${name}\` input: required value has not been provided`)
    if (typeOf(value) !== type) throw new ConfigError(`\`${name}\` input: provided value is not a ${type}`)
    if (Array.isArray(decl.options) && !decl.options.includes(value)) {
      throw new ConfigError(`\`${name}\` input: \`${String(value)}\` cannot be used because it is not in the list of allowed options`)
    }
    out.set(name, value as InputValue)
  }
  return out
}

/** One `$[[ … ]]` block: `inputs.name`, then at most three functions (`truncate(offset,length)`, `expand_vars`). */
function blockValue(block: string, inputs: Map<string, InputValue>): InputValue {
  const [access, ...functions] = block.split('|').map((s) => s.trim())
  if (functions.length > MAX_FUNCTIONS) throw new ConfigError('too many functions in interpolation block')
  const key = /^inputs\.([\w-]+)$/.exec(access)?.[1]
  if (key === undefined || !inputs.has(key)) throw new ConfigError(`unknown interpolation key: \`${key ?? access}\``)
  let value = inputs.get(key)!
  for (const fn of functions) {
    const truncate = /^truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(fn)
    // expand_vars expands variables known when the config is read; the job-start expansion does that here.
    if (truncate) value = String(value).slice(Number(truncate[1]), Number(truncate[1]) + Number(truncate[2]))
    else if (fn !== 'expand_vars') throw new ConfigError(`no function matching \`${fn}\`: check that the function name, arguments, and types are correct`)
  }
  return value
}

// Matrix expressions are resolved per parallel instance, after the config is read (parallel.ts).
const isMatrixBlock = (block: string) => block.startsWith('matrix.')

function interpolateString(text: string, inputs: Map<string, InputValue>): unknown {
  const whole = /^\$\[\[\s*(.*?)\s*\]\]$/.exec(text)
  // A value that is one block alone keeps the input's type (a number, a boolean, a list).
  if (whole && !isMatrixBlock(whole[1])) return blockValue(whole[1], inputs)
  return text.replace(BLOCK, (all, block: string) => {
    if (isMatrixBlock(block)) return all
    const v = blockValue(block, inputs)
    return Array.isArray(v) ? JSON.stringify(v) : String(v)
  })
}

function interpolate(node: unknown, inputs: Map<string, InputValue>): unknown {
  if (typeof node === 'string') return node.includes('$[[') ? interpolateString(node, inputs) : node
  if (Array.isArray(node)) return node.map((n) => interpolate(n, inputs))
  if (!isHash(node)) return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) setKey(out, String(interpolate(k, inputs)), interpolate(v, inputs))
  return out
}

/** The config with its inputs interpolated; a file without a header takes no inputs and is left as it is. */
export function applyInputs(header: unknown, config: unknown, given: unknown): unknown {
  const args = isHash(given) ? given : {}
  if (header === null) {
    if (Object.keys(args).length) throw new ConfigError('Given inputs not defined in the `spec` section of the included configuration file')
    return config
  }
  return interpolate(config, resolveInputs(isHash(header) ? header.spec : null, args))
}
