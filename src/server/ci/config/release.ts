// The `release:` keyword, checked as GitLab's Entry::Release, Release::Assets and Assets::Link do, and kept as
// GitLab keeps it in a job's options: the values as written, expanded later by the job's shell.
import type { JobRelease, JobReleaseLink } from '../plan-types.js'
import { Problems, unknownKeys } from './fields.js'
import { isHash } from './yaml.js'

const RELEASE_KEYS = ['tag_name', 'tag_message', 'name', 'description', 'ref', 'released_at', 'milestones', 'assets']
const LINK_KEYS = ['name', 'url', 'filepath', 'direct_asset_path', 'link_type']
const LINK_TYPES = ['other', 'runbook', 'image', 'package']
/** Releases::Link::FILEPATH_REGEX: a path of word characters, dots and dashes, not ending in a slash or a dot. */
const FILEPATH = /^\/?(?:[-.\w]+\/?)*[\da-zA-Z_-]+$/

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')
/** A variable (`$VERSION`) or a full URL: GitLab's addressable_url check lets variables through for the shell to expand. */
const urlLike = (v: string) => /^\$/.test(v) || /^[a-z][a-z0-9+.-]*:\/\/[^\s/]/i.test(v)

function optionalString(release: Record<string, unknown>, key: string, at: string, p: Problems): string | undefined {
  const v = release[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') { p.add(`${at} ${key.replace(/_/g, ' ')} should be a string`); return undefined }
  return v
}

/** `released_at` must parse as ISO 8601 (DateTime.iso8601); a variable is left for the shell. */
function releasedAt(release: Record<string, unknown>, at: string, p: Problems): string | undefined {
  const v = release.released_at
  if (v === undefined || v === null) return undefined
  const text = v instanceof Date ? v.toISOString() : String(v)
  if (!text.startsWith('$') && !/^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    p.add(`${at} released at must be a valid datetime`)
    return undefined
  }
  return text
}

function milestones(release: Record<string, unknown>, at: string, p: Problems): string[] | undefined {
  const v = release.milestones
  if (v === undefined || v === null || v === '') return undefined
  if (typeof v === 'string') return [v]
  if (Array.isArray(v) && v.every((m) => typeof m === 'string')) return v.length ? v : undefined
  p.add(`${at} milestones should be an array of strings or a string`)
  return undefined
}

/** A ref as git would take it (GitRefValidator), or a variable for the shell; a SHA passes too. */
function ref(release: Record<string, unknown>, at: string, p: Problems): string | undefined {
  const v = optionalString(release, 'ref', at, p)
  if (v === undefined || v === '') return undefined
  const bad = /(^|\/)\.|\.\.|[\x00-\x20~^:?*[\\\x7f]|@\{|\/\/|^\/|\/$|\.lock$|\.$|^-|^@$/.test(v)
  if (bad && !v.startsWith('$')) p.add(`${at} ref must be a valid ref`)
  return v
}

function link(value: unknown, at: string, p: Problems): JobReleaseLink | undefined {
  if (!isHash(value)) return undefined
  const before = p.list.length
  unknownKeys(value, LINK_KEYS, at, p)
  if (!present(value.name)) p.add(`${at} name can't be blank`)
  else if (typeof value.name !== 'string') p.add(`${at} name should be a string`)
  if (!present(value.url)) p.add(`${at} url can't be blank`)
  else if (typeof value.url !== 'string' || !urlLike(value.url)) p.add(`${at} url must be a valid URL`)
  const filepath = value.filepath ?? value.direct_asset_path
  if (present(filepath) && (typeof filepath !== 'string' || filepath.length > 128 || !FILEPATH.test(filepath))) p.add(`${at} filepath is invalid`)
  if (present(value.link_type) && !LINK_TYPES.includes(value.link_type as string)) p.add(`${at} link type should be one of: ${LINK_TYPES.join(', ')}`)
  if (p.list.length > before) return undefined
  return {
    name: value.name as string, url: value.url as string,
    ...(present(filepath) ? { filepath: filepath as string } : {}),
    ...(present(value.link_type) ? { link_type: value.link_type as string } : {}),
  }
}

function assets(value: unknown, at: string, p: Problems): JobRelease['assets'] {
  if (value === undefined || value === null) return undefined
  const where = `${at}:assets`
  if (!isHash(value)) { p.add(`${where} config should be a hash`); return undefined }
  unknownKeys(value, ['links'], where, p)
  const links = value.links
  if (links === undefined || links === null || (Array.isArray(links) && links.length === 0)) { p.add(`${where} links can't be blank`); return undefined }
  if (!Array.isArray(links) || !links.every(isHash)) { p.add(`${where} links should be an array of hashes`); return undefined }
  const out = links.map((l) => link(l, `${where}:links:link`, p))
  return out.every((l) => l !== undefined) ? { links: out as JobReleaseLink[] } : undefined
}

/** The job's release, null without one, or undefined after its problems were reported. */
export function parseRelease(value: unknown, jobAt: string, p: Problems): JobRelease | null | undefined {
  if (value === undefined || value === null) return null
  const at = `${jobAt}:release`
  if (!isHash(value)) { p.add(`${at} config should be a hash`); return undefined }
  const before = p.list.length
  unknownKeys(value, RELEASE_KEYS, at, p)
  if (!present(value.tag_name)) p.add(`${at} tag name can't be blank`)
  else if (typeof value.tag_name !== 'string') p.add(`${at} tag name should be a string`)
  if (!present(value.description)) p.add(`${at} description can't be blank`)
  else if (typeof value.description !== 'string') p.add(`${at} description should be a string`)
  const release: JobRelease = {
    tag_name: value.tag_name as string,
    description: value.description as string,
    tag_message: optionalString(value, 'tag_message', at, p),
    name: optionalString(value, 'name', at, p),
    ref: ref(value, at, p),
    released_at: releasedAt(value, at, p),
    milestones: milestones(value, at, p),
    assets: assets(value.assets, at, p),
  }
  if (p.list.length > before) return undefined
  for (const key of Object.keys(release) as (keyof JobRelease)[]) if (release[key] === undefined || release[key] === '') delete release[key]
  return release
}
