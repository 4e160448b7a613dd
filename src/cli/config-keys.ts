// The keys `collab config` reads and writes (gh's names), where each lives in the file and its default.
import { normalizeHost, type ConfigFile } from './config.js'
import { usageError } from './errors.js'

interface KeySpec {
  description: string
  /** Allowed values; anything else is a usage error. */
  values?: readonly string[]
  default: string
  /** May be set per host with `--host`. */
  perHost: boolean
}

export const CONFIG_KEYS = {
  host: { description: 'the host used when no --host, COLLAB_HOST or git remote says otherwise', default: '', perHost: false },
  git_protocol: { description: 'the protocol git uses to clone and push', values: ['https', 'ssh'], default: 'https', perHost: true },
  editor: { description: 'the editor for descriptions and notes (else VISUAL, else EDITOR, else vi)', default: '', perHost: false },
} satisfies Record<string, KeySpec>

export type ConfigKey = keyof typeof CONFIG_KEYS

/** gh's keys that collab has no use for: refused with the reason, rather than stored and ignored. */
const UNSUPPORTED: Record<string, string> = {
  browser: 'collab opens no browser: --web prints the URL to open',
  pager: 'collab pages nothing: pipe into less',
  prompt: 'collab prompts only on a terminal; pass the flags to avoid prompts',
}

export function checkKey(key: string, host?: string): ConfigKey {
  if (Object.hasOwn(UNSUPPORTED, key)) throw usageError(`'${key}' is not a collab setting`, UNSUPPORTED[key])
  if (!Object.hasOwn(CONFIG_KEYS, key)) {
    throw usageError(`unknown configuration key '${key}'`, `known keys: ${Object.keys(CONFIG_KEYS).join(', ')}`)
  }
  const spec: KeySpec = CONFIG_KEYS[key as ConfigKey]
  if (host !== undefined && !spec.perHost) throw usageError(`'${key}' cannot be set per host; drop --host`)
  return key as ConfigKey
}

/** A per-host value, else the global one, else the default. */
export function getConfigValue(config: ConfigFile, key: ConfigKey, host?: string): string {
  if (key === 'host') return config.default_host ?? ''
  if (host !== undefined && CONFIG_KEYS[key].perHost) {
    const own = (config.hosts[normalizeHost(host)] as Record<string, string | undefined> | undefined)?.[key]
    if (own !== undefined) return own
  }
  return config.settings[key] ?? CONFIG_KEYS[key].default
}

export function setConfigValue(config: ConfigFile, key: ConfigKey, value: string, host?: string): void {
  const spec: KeySpec = CONFIG_KEYS[key]
  if (spec.values && !spec.values.includes(value)) {
    throw usageError(`invalid value '${value}' for ${key}`, `valid values: ${spec.values.join(', ')}`)
  }
  if (key === 'host') {
    config.default_host = normalizeHost(value)
  } else if (host !== undefined) {
    const name = normalizeHost(host)
    config.hosts[name] = { ...config.hosts[name], [key]: value }
  } else {
    config.settings[key] = value
  }
}
