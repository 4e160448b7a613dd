// Releases (GitLab's lib/api/releases.rb and lib/api/release/links.rb): a tag's release notes, milestones and asset links.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { BasicRelease, Release, RELEASE_LINK_TYPES, ReleaseLink } from '../entities/releases.js'
import { bool, int, isoDate, list, oneOf, ref, str, text } from '../params.js'

const Id = { id: ref() }
/** GitLab's NO_SLASH_URL_PART_REGEX: a tag with a `/` is sent URL-encoded. */
const Tagged = { ...Id, tag_name: str(1024) }
const LinkRef = { ...Tagged, link_id: int() }

const LinkFields = {
  direct_asset_path: str(1024).optional(),
  /** Deprecated by GitLab in favour of direct_asset_path; still accepted. */
  filepath: str(1024).optional(),
  link_type: oneOf(RELEASE_LINK_TYPES).optional(),
}
const NewLink = z.object({ name: str(), url: str(2048), ...LinkFields }, { error: 'is invalid' })

/** The query a permalink passes on to where it leads (all but `order_by`, which GitLab reserves). */
const LatestQuery = { order_by: str().optional(), include_html_description: bool().optional() }

const Milestones = {
  /** Titles of project milestones; `[]` (or an empty string) removes them all on update. */
  milestones: list(str()).optional(),
  milestone_ids: list(int()).optional(),
}

export const listReleases = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases', summary: 'List releases (newest released first)', auth: 'optional', paginated: true,
  params: Id,
  input: {
    order_by: oneOf(['released_at', 'created_at']).optional(), sort: oneOf(['asc', 'desc']).optional(),
    include_html_description: bool().optional(), updated_before: isoDate().optional(), updated_after: isoDate().optional(),
  },
  responses: { 200: z.array(Release) },
})

export const getRelease = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/:tag_name', summary: 'Get a release by its tag name', auth: 'optional',
  params: Tagged, input: { include_html_description: bool().optional() }, responses: { 200: Release },
})

export const getLatestRelease = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/permalink/latest', summary: 'Redirect (302) to the latest release (by released_at)',
  auth: 'optional', raw: true, params: Id, input: LatestQuery, responses: { 302: null },
})

export const getLatestReleaseSuffix = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/permalink/latest/:suffix_path', greedy: ['suffix_path'], raw: true,
  summary: "Redirect (302) to a path under the latest release (…/permalink/latest/assets/links → …/releases/<tag>/assets/links)",
  auth: 'optional', params: { ...Id, suffix_path: str(4096) }, input: LatestQuery, responses: { 302: null },
})

export const downloadReleaseAsset = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/:tag_name/downloads/:direct_asset_path', greedy: ['direct_asset_path'], raw: true,
  summary: "Redirect (302) to the URL of the release's link with this direct asset path", auth: 'optional',
  params: { ...Tagged, direct_asset_path: str(1024) }, responses: { 302: null },
})

export const createRelease = defineEndpoint({
  method: 'POST', jobToken: true, path: '/projects/:id/releases', summary: 'Create a release (and its tag from `ref` when the tag does not exist)',
  params: Id,
  input: {
    tag_name: str(1024), tag_message: text().optional(), name: str().optional(), description: text().optional(), ref: str(1024).optional(),
    assets: z.object({ links: list(NewLink).optional() }, { error: 'is invalid' }).optional(),
    ...Milestones, released_at: isoDate().optional(), legacy_catalog_publish: bool().optional(),
  },
  responses: { 201: Release },
})

export const updateRelease = defineEndpoint({
  method: 'PUT', jobToken: true, path: '/projects/:id/releases/:tag_name', summary: "Update a release's name, notes, date or milestones",
  params: Tagged, input: { name: str().optional(), description: text().optional(), released_at: isoDate().optional(), ...Milestones },
  responses: { 200: Release },
})

export const deleteRelease = defineEndpoint({
  method: 'DELETE', jobToken: true, path: '/projects/:id/releases/:tag_name', summary: 'Delete a release (the tag stays); answers the deleted release',
  params: Tagged, responses: { 200: Release },
})

export const listGroupReleases = defineEndpoint({
  method: 'GET', path: '/groups/:id/releases', summary: "List the releases of a group's projects (and its subgroups')", auth: 'optional', paginated: true,
  params: Id, input: { sort: oneOf(['asc', 'desc']).optional(), simple: bool().optional() },
  responses: { 200: z.union([z.array(Release), z.array(BasicRelease)]) },
})

export const listReleaseLinks = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/:tag_name/assets/links', summary: "List a release's asset links", auth: 'optional', paginated: true,
  params: Tagged, responses: { 200: z.array(ReleaseLink) },
})

export const createReleaseLink = defineEndpoint({
  method: 'POST', jobToken: true, path: '/projects/:id/releases/:tag_name/assets/links', summary: 'Add an asset link to a release',
  params: Tagged, input: { name: str(), url: str(2048), ...LinkFields }, responses: { 201: ReleaseLink },
})

export const getReleaseLink = defineEndpoint({
  method: 'GET', jobToken: true, path: '/projects/:id/releases/:tag_name/assets/links/:link_id', summary: 'Get an asset link of a release', auth: 'optional',
  params: LinkRef, responses: { 200: ReleaseLink },
})

export const updateReleaseLink = defineEndpoint({
  method: 'PUT', jobToken: true, path: '/projects/:id/releases/:tag_name/assets/links/:link_id', summary: 'Update an asset link of a release',
  params: LinkRef, input: { name: str().optional(), url: str(2048).optional(), ...LinkFields }, atLeastOneOf: ['name', 'url'],
  responses: { 200: ReleaseLink },
})

export const deleteReleaseLink = defineEndpoint({
  method: 'DELETE', jobToken: true, path: '/projects/:id/releases/:tag_name/assets/links/:link_id', summary: 'Delete an asset link; answers the deleted link',
  params: LinkRef, responses: { 200: ReleaseLink },
})
