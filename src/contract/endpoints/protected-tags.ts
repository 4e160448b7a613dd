// Protected tags (GitLab's lib/api/protected_tags.rb): list, get, protect and unprotect tags or wildcards; Maintainers only.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { ProtectedTag } from '../entities/protected-tags.js'
import { ref, str } from '../params.js'
import { allowed, level } from './protected-branches.js'

const Id = { id: ref() }
const Named = { ...Id, name: str(1024) }

export const listProtectedTags = defineEndpoint({
  method: 'GET', path: '/projects/:id/protected_tags', summary: 'List protected tags', paginated: true,
  params: Id, responses: { 200: z.array(ProtectedTag) },
})

export const getProtectedTag = defineEndpoint({
  method: 'GET', path: '/projects/:id/protected_tags/:name', summary: 'Get a protected tag or wildcard by name',
  params: Named, responses: { 200: ProtectedTag },
})

export const protectTag = defineEndpoint({
  method: 'POST', path: '/projects/:id/protected_tags', summary: 'Protect a tag or a wildcard (`v*`)',
  params: Id, input: { name: str(1024), create_access_level: level().optional(), allowed_to_create: allowed() },
  responses: { 201: ProtectedTag },
})

export const unprotectTag = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/protected_tags/:name', summary: 'Unprotect a tag or wildcard',
  params: Named, responses: { 204: null },
})
