// Where a project's repository is kept, for administrators: its storage and a snapshot of the repository itself.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { bool, ref } from '../params.js'

/** Entities::ProjectRepositoryStorage. */
export const ProjectRepositoryStorage = z.object({
  disk_path: z.string(), project_id: z.number().int(), repository_storage: z.string(), created_at: z.string(),
})
export type ProjectRepositoryStorage = z.infer<typeof ProjectRepositoryStorage>

export const getProjectStorage = defineEndpoint({
  method: 'GET', path: '/projects/:id/storage', summary: "The storage of a project's repository and its path there (administrators)", auth: 'admin',
  params: { id: ref() }, responses: { 200: ProjectRepositoryStorage },
})

export const getProjectSnapshot = defineEndpoint({
  method: 'GET', path: '/projects/:id/snapshot', summary: "An uncompressed tar of the project's bare git repository, or with wiki=true its wiki's (administrators)",
  auth: 'admin', raw: true, params: { id: ref() }, input: { wiki: bool().optional() }, responses: { 200: null },
})
