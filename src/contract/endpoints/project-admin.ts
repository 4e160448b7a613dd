// Project administration of issue 15: housekeeping on request, transfer, and the groups a project belongs to.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Project } from '../entities/projects.js'
import { int, list, ref, str } from '../params.js'

const Id = { id: ref() }

/** Entities::PublicGroupDetails. */
export const ProjectGroup = z.object({ id: z.number().int(), web_url: z.string(), name: z.string(), avatar_url: z.string().nullable(), full_name: z.string(), full_path: z.string() })

export const startHousekeeping = defineEndpoint({
  method: 'POST', path: '/projects/:id/housekeeping', summary: 'Run housekeeping (gc) on the repository now',
  params: Id, responses: { 201: null },
})

export const transferProject = defineEndpoint({
  method: 'PUT', path: '/projects/:id/transfer', summary: 'Move a project to another namespace',
  params: Id, input: { namespace: ref() }, responses: { 200: Project },
})

export const listProjectGroups = defineEndpoint({
  method: 'GET', path: '/projects/:id/groups', summary: 'The ancestor groups of a project', auth: 'optional', paginated: true,
  params: Id, input: { search: str().optional(), skip_groups: list(int()).optional() }, responses: { 200: z.array(ProjectGroup) },
})
