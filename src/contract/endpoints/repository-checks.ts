// Repository checks (administrators): the last periodic `git fsck` of a project's repository, and one run on demand.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ref } from '../params.js'

/** GitLab's project attributes for the check, and git's complaints when it failed. */
export const RepositoryCheck = z.object({
  last_repository_check_at: z.string().nullable(),
  last_repository_check_failed: z.boolean().nullable(),
  output: z.string().nullable(),
})

export const getRepositoryCheck = defineEndpoint({
  method: 'GET', path: '/projects/:id/repository_check', summary: "Get the result of the last check of a project's repository", auth: 'admin',
  params: { id: ref() }, responses: { 200: RepositoryCheck },
})

export const runRepositoryCheck = defineEndpoint({
  method: 'POST', path: '/projects/:id/repository_check', summary: "Check a project's repository now (git fsck) and answer the result", auth: 'admin',
  params: { id: ref() }, responses: { 201: RepositoryCheck },
})
