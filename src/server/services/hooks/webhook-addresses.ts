// Which URLs a hook may call: http(s) only, and loopback or private addresses only while
// `allow_local_requests_from_hooks_and_services` is on (GitLab's UrlBlocker, best effort).
import dns from 'node:dns'
import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import { CollabError } from '../../../core/errors.js'
import type { AppDeps } from '../../context.js'
import { currentSettings } from '../instance/application-settings.js'

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4')
// ::/96 holds ::1, :: and the IPv4-compatible ::127.0.0.1; BlockList checks IPv4-mapped (::ffff:7f00:1) by their IPv4.
LOOPBACK.addSubnet('::', 96, 'ipv6')

const PRIVATE = new BlockList()
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['100.64.0.0', 10]] as const) PRIVATE.addSubnet(net, bits, 'ipv4')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')

const LINK_LOCAL = new BlockList()
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4')
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6')

export const invalidHookUrl = () => new CollabError('HOOK_URL_INVALID', 'Invalid url given', { status: 422 })

/** The URL a hook calls, with `{name}` placeholders filled from its URL variables. */
export function expandHookUrl(url: string, variables: Record<string, string>): string {
  return url.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => variables[name] ?? whole)
}

/** Parses a hook URL as GitLab's validation does: absolute, http or https, a host. Null when it is none of these. */
export function parseHookUrl(url: string): URL | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname ? parsed : null
}

const bare = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host)

// A name's trailing dots are the same name (`localhost.`), which resolvers need not know.
const LOCALHOST_NAME = /(?:^|\.)localhost\.*$/i

/** Why an address may not be called, in GitLab's words; null when it may. */
function addressRefusal(address: string): string | null {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  const check = (list: BlockList) => list.check(address, family)
  if (check(LOOPBACK)) return 'Requests to localhost are not allowed'
  if (check(LINK_LOCAL)) return 'Requests to the link local network are not allowed'
  if (check(PRIVATE)) return 'Requests to the local network are not allowed'
  return null
}

export const localRequestsAllowed = (app: AppDeps) => currentSettings(app).allow_local_requests_from_hooks_and_services

/** At create and update: a URL that is not http(s), or names a local address while those are refused, is GitLab's 422. */
export function requireHookUrlAllowed(app: AppDeps, url: string) {
  const parsed = parseHookUrl(url)
  if (!parsed) throw invalidHookUrl()
  if (localRequestsAllowed(app)) return
  // Other names are resolved, and their addresses checked, at delivery.
  const host = bare(parsed.hostname)
  if (LOCALHOST_NAME.test(host) || (isIP(host) && addressRefusal(host))) throw invalidHookUrl()
}

/**
 * At delivery: resolves the host and refuses local addresses unless allowed, so a name that resolves to 127.0.0.1
 * is caught as a literal would be. Returns the refusal, or null to go ahead.
 */
export async function deliveryRefusal(app: AppDeps, url: URL): Promise<string | null> {
  const checked = await checkedAddresses(app, url)
  return 'refusal' in checked ? checked.refusal : null
}

/**
 * The same check for a caller that connects through another program (git, for push mirrors): the refusal, or the host's
 * checked addresses, which the program must be pinned to (null while local requests are allowed: any address will do).
 */
export async function checkedAddresses(app: AppDeps, url: URL): Promise<{ refusal: string } | { addresses: string[] | null }> {
  if (localRequestsAllowed(app)) return { addresses: null }
  const host = bare(url.hostname)
  if (LOCALHOST_NAME.test(host)) return { refusal: 'Requests to localhost are not allowed' }
  let addresses: string[]
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address)
  } catch {
    return { refusal: 'Host cannot be resolved or invalid' }
  }
  for (const a of addresses) {
    const why = addressRefusal(a)
    if (why) return { refusal: why }
  }
  return { addresses }
}

/**
 * The resolver a delivery connects with while local requests are refused: the address checked is the one connected to,
 * so a name that resolves differently between the check and the connection (DNS rebinding) is still refused.
 */
export function guardedLookup(app: AppDeps): typeof dns.lookup | undefined {
  if (localRequestsAllowed(app)) return undefined
  return ((hostname: string, options: dns.LookupOptions, callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '')
      const refused = addresses.map((a) => addressRefusal(a.address)).find((why) => why !== null)
      if (refused) return callback(new Error(refused), '')
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0].address, addresses[0].family)
    })
  }) as typeof dns.lookup
}

