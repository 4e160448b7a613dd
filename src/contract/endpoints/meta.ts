// Instance metadata: version and the generated OpenAPI document.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Version } from '../entities/users.js'

export const getVersion = defineEndpoint({
  method: 'GET', path: '/version', summary: 'Retrieve version information for this instance',
  responses: { 200: Version }, scope: 'user',
})

export const getOpenApi = defineEndpoint({
  method: 'GET', path: '/openapi.json', summary: 'The OpenAPI document of this API, generated from the contract',
  responses: { 200: z.record(z.string(), z.unknown()) }, auth: 'public',
})

export const getMetadata = defineEndpoint({
  method: 'GET', path: '/metadata', summary: 'Retrieve metadata of this instance (the newer form of /version)',
  responses: { 200: Version }, scope: 'user',
})
