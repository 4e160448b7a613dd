// Releases and release links: the releases API and its release/links sub-API.
import type { contract } from '../../contract/index.js'
import type { HandlerResult, RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentBasicRelease, presentRelease, presentReleaseLink } from '../present/releases.js'
import { findVisibleGroup } from '../services/groups/index.js'
import { findVisibleProject } from '../services/projects/index.js'
import * as links from '../services/releases/index.js'
import * as releases from '../services/releases/index.js'

const project = (ctx: RequestContext, id: string) => findVisibleProject(ctx, id)

/** Grape's `redirect`: a 302 with the location and no body a client needs to read. */
const redirect = (location: string): HandlerResult => ({ status: 302, headers: { Location: location }, raw: '' })

/** `…/permalink/latest[/suffix]` to the latest release's API path, with the query it knows except `order_by` (lib/api/releases.rb). */
function latestRedirect(ctx: RequestContext, id: string, suffix: string | undefined, query: { include_html_description?: boolean }): HandlerResult {
  const p = project(ctx, id)
  const latest = releases.latestRelease(ctx, p)
  let url = `${ctx.apiUrl}/projects/${p.id}/releases/${encodeURIComponent(latest.tag)}`
  if (suffix) url += `/${suffix}`
  const params = new URLSearchParams()
  if (query.include_html_description !== undefined) params.append('include_html_description', String(query.include_html_description))
  const search = params.toString()
  return redirect(search ? `${url}?${search}` : url)
}

export const releaseHandlers = {
  listReleases: async (input, ctx) => {
    const p = project(ctx, input.id)
    const { views, total } = await releases.listReleases(ctx, p, input)
    return { status: 200, body: views.map((v) => presentRelease(v, ctx)), total }
  },
  getRelease: async (input, ctx) => {
    const p = project(ctx, input.id)
    return { status: 200, body: presentRelease(await releases.getRelease(ctx, p, input.tag_name, input.include_html_description), ctx) }
  },
  getLatestRelease: (input, ctx) => latestRedirect(ctx, input.id, undefined, input),
  getLatestReleaseSuffix: (input, ctx) => latestRedirect(ctx, input.id, input.suffix_path, input),
  downloadReleaseAsset: (input, ctx) => {
    const p = project(ctx, input.id)
    const r = releases.releaseForDownload(ctx, p, input.tag_name)
    return redirect(links.linkAtFilepath(ctx, r, input.direct_asset_path).url)
  },
  createRelease: async (input, ctx) => ({ status: 201, body: presentRelease(await releases.createRelease(ctx, project(ctx, input.id), input), ctx) }),
  updateRelease: async (input, ctx) => ({ status: 200, body: presentRelease(await releases.updateRelease(ctx, project(ctx, input.id), input.tag_name, input), ctx) }),
  deleteRelease: async (input, ctx) => ({ status: 200, body: presentRelease(await releases.deleteRelease(ctx, project(ctx, input.id), input.tag_name), ctx) }),
  listGroupReleases: async (input, ctx) => {
    const { views, total } = await releases.listGroupReleases(ctx, findVisibleGroup(ctx, input.id), input)
    return { status: 200, body: views.map((v) => (input.simple ? presentBasicRelease(v) : presentRelease(v, ctx))), total }
  },

  listReleaseLinks: (input, ctx) => {
    const p = project(ctx, input.id)
    const { release, rows, total } = links.listLinks(ctx, p, input.tag_name)
    return { status: 200, body: rows.map((l) => presentReleaseLink(l, release.tag, p, ctx)), total }
  },
  createReleaseLink: (input, ctx) => {
    const p = project(ctx, input.id)
    const { release, link } = links.createLink(ctx, p, input.tag_name, input)
    return { status: 201, body: presentReleaseLink(link, release.tag, p, ctx) }
  },
  getReleaseLink: (input, ctx) => {
    const p = project(ctx, input.id)
    const { release, link } = links.getLink(ctx, p, input.tag_name, input.link_id)
    return { status: 200, body: presentReleaseLink(link, release.tag, p, ctx) }
  },
  updateReleaseLink: (input, ctx) => {
    const p = project(ctx, input.id)
    const { release, link } = links.updateLink(ctx, p, input.tag_name, input.link_id, input)
    return { status: 200, body: presentReleaseLink(link, release.tag, p, ctx) }
  },
  deleteReleaseLink: (input, ctx) => {
    const p = project(ctx, input.id)
    const { release, link } = links.deleteLink(ctx, p, input.tag_name, input.link_id)
    return { status: 200, body: presentReleaseLink(link, release.tag, p, ctx) }
  },
} satisfies Handlers<typeof contract.releases>
