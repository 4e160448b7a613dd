// Badges of projects and groups (lib/api/badges.rb): CRUD, and a preview with the placeholders filled in.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { int, ref, str } from '../params.js'

export const BasicBadgeDetails = z.object({
  name: z.string().nullable(), link_url: z.string(), image_url: z.string(), rendered_link_url: z.string(), rendered_image_url: z.string(),
})
export const Badge = BasicBadgeDetails.extend({ id: z.number().int(), kind: z.enum(['project', 'group']) })

const Source = { id: ref() }
const One = { id: ref(), badge_id: int() }
const Urls = { link_url: str(2048), image_url: str(2048) }

function badgeEndpoints<K extends 'projects' | 'groups'>(kind: K, who: string) {
  const base = `/${kind}/:id/badges` as const
  return {
    list: defineEndpoint({ method: 'GET', path: base, summary: `List the badges of a ${who}`, auth: 'optional', scope: 'read', paginated: true, params: Source, input: { name: str().optional() }, responses: { 200: z.array(Badge) } }),
    render: defineEndpoint({ method: 'GET', path: `${base}/render`, summary: `Preview a ${who} badge with its placeholders filled in`, scope: 'read', params: Source, input: Urls, responses: { 200: BasicBadgeDetails } }),
    get: defineEndpoint({ method: 'GET', path: `${base}/:badge_id`, summary: `Get a badge of a ${who}`, auth: 'optional', scope: 'read', params: One, responses: { 200: Badge } }),
    add: defineEndpoint({ method: 'POST', path: base, summary: `Add a badge to a ${who}`, params: Source, input: { ...Urls, name: str().optional() }, responses: { 201: Badge } }),
    edit: defineEndpoint({ method: 'PUT', path: `${base}/:badge_id`, summary: `Change a badge of a ${who}`, params: One, input: { link_url: str(2048).optional(), image_url: str(2048).optional(), name: str().optional() }, responses: { 200: Badge } }),
    remove: defineEndpoint({ method: 'DELETE', path: `${base}/:badge_id`, summary: `Remove a badge from a ${who}`, params: One, responses: { 204: null } }),
  }
}

const project = badgeEndpoints('projects', 'project')
const group = badgeEndpoints('groups', 'group')

export const listProjectBadges = project.list
export const renderProjectBadge = project.render
export const getProjectBadge = project.get
export const addProjectBadge = project.add
export const editProjectBadge = project.edit
export const removeProjectBadge = project.remove

export const listGroupBadges = group.list
export const renderGroupBadge = group.render
export const getGroupBadge = group.get
export const addGroupBadge = group.add
export const editGroupBadge = group.edit
export const removeGroupBadge = group.remove
