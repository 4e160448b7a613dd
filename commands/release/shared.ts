// What the release verbs share: the list's columns, asset links from --assets-links JSON and from `file#label#type`
// arguments, a release picked by tag or the latest one, and milestones from repeated or comma-separated flags.
import { basename } from 'node:path'
import { InvalidArgumentError, type Command } from 'commander'
import { collect } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { RELEASE_LINK_TYPES } from '../../src/core/release-urls.js'
import { csv } from '../../src/cli/text-input.js'

export type Release = ResponseOf<'getRelease'>
export type ReleaseLink = Release['assets']['links'][number]

export const releaseColumns = (io: IO): Column<Release>[] => [
  { header: 'NAME', value: (r) => r.name, style: (text) => io.color.bold(text), flex: true },
  { header: 'TAG', value: (r) => r.tag_name },
  { header: 'RELEASED', value: (r) => r.released_at, time: true },
  { header: 'ASSETS', value: (r) => r.assets.links.length },
]

/** A link as the Releases API takes it (`assets[links][]`, `POST …/assets/links`). */
export interface NewLink { name: string; url: string; direct_asset_path?: string; link_type?: string }

/** `--assets-links '[{"name": …, "url": …, "direct_asset_path"|"filepath": …, "link_type": …}]'`, as glab and release-cli take it. */
export function parseAssetsLinks(text: string): NewLink[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new InvalidArgumentError(`expected a JSON array of links: ${(err as Error).message}`)
  }
  const list = Array.isArray(value) ? value : [value]
  return list.map((l: Record<string, unknown>) => {
    if (!l || typeof l !== 'object' || typeof l.name !== 'string' || typeof l.url !== 'string') {
      throw new InvalidArgumentError('each link needs a "name" and a "url" (strings)')
    }
    const path = l.direct_asset_path ?? l.filepath
    if (path !== undefined && typeof path !== 'string') throw new InvalidArgumentError('"direct_asset_path" must be a string')
    if (l.link_type !== undefined && !RELEASE_LINK_TYPES.includes(l.link_type as never)) {
      throw new InvalidArgumentError(`"link_type" must be one of ${RELEASE_LINK_TYPES.join(', ')}`)
    }
    return { name: l.name, url: l.url, ...(path ? { direct_asset_path: path } : {}), ...(l.link_type ? { link_type: l.link_type as string } : {}) }
  })
}

/** A repeatable `--assets-links JSON`: every given array joined. */
export const collectLinks = (value: string, previous: NewLink[] = []) => [...previous, ...parseAssetsLinks(value)]

/** One file argument: `path`, `path#label` or `path#label#type`, as glab takes them. */
export interface AssetFile { path: string; name: string; label: string; linkType?: string }

export function parseAssetFile(arg: string): AssetFile {
  const [path, label, linkType] = arg.split('#')
  if (!path) throw usageError(`no file in '${arg}'`, 'files are given as path, path#label or path#label#type')
  if (linkType !== undefined && !RELEASE_LINK_TYPES.includes(linkType as never)) {
    throw usageError(`unknown link type '${linkType}' in '${arg}'`, `use one of ${RELEASE_LINK_TYPES.join(', ')}`)
  }
  const name = basename(path)
  return { path, name, label: label || name, ...(linkType ? { linkType } : {}) }
}

export const withMilestoneFlag = (command: Command) =>
  command.option('-m, --milestone <title>', 'a milestone title to associate (repeat or comma-separate)', collect)

/** `--milestone a,b --milestone c` -> [a, b, c]; a lone `--milestone ''` is [] (on edit: remove them all). */
export const milestoneTitles = (values: string[] | undefined) => (values === undefined ? undefined : csv(values) ?? [])

/** The release of `tag`, or without one the project's latest (by released_at, as GitLab's permalink/latest). */
export async function findRelease(api: ApiClient, project: string, tag: string | undefined): Promise<{ release: Release; text: string }> {
  let name = tag
  if (name === undefined) {
    const page = await api.list(route('listReleases', { id: project }), { order_by: 'released_at', sort: 'desc', per_page: 1 })
    const latest = page.items[0] as Release | undefined
    if (!latest) throw failure(`${project} has no releases`, 'name a tag, or create a release with: collab release create TAG')
    name = latest.tag_name
  }
  // Read on its own, so that --json prints the API's answer for this release exactly.
  const response = await api.call(route('getRelease', { id: project, tag_name: name }))
  return { release: parseJson<Release>(response), text: response.text }
}
