// Generates an OpenAPI 3.1 document from the contract, so the published description can never drift from the code.
import { z } from 'zod'
import type { Contract, Endpoint } from './define.js'

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { unrepresentable: 'any', io: 'output', target: 'draft-2020-12' }) as Record<string, unknown>

function operation(name: string, e: Endpoint) {
  const pathNames = new Set((e.path.match(/:(\w+)/g) ?? []).map((p) => p.slice(1)))
  const shape = e.schema.shape as Record<string, z.ZodType>
  const parameters: unknown[] = []
  const bodyProps: Record<string, unknown> = {}
  const required: string[] = []
  const inQuery = e.method === 'GET' || e.method === 'DELETE'
  for (const [key, schema] of Object.entries(shape)) {
    const optional = schema.safeParse(undefined).success
    if (pathNames.has(key)) parameters.push({ name: key, in: 'path', required: true, schema: toSchema(schema) })
    else if (inQuery) parameters.push({ name: key, in: 'query', required: !optional, schema: toSchema(schema) })
    else {
      bodyProps[key] = toSchema(schema)
      if (!optional) required.push(key)
    }
  }
  const responses: Record<string, unknown> = {}
  for (const [status, schema] of Object.entries(e.responses)) {
    responses[status] = schema
      ? { description: `HTTP ${status}`, content: { 'application/json': { schema: toSchema(schema) } } }
      : { description: `HTTP ${status}, no body` }
  }
  return {
    operationId: name,
    summary: e.summary,
    parameters,
    ...(Object.keys(bodyProps).length
      ? { requestBody: { content: { 'application/json': { schema: { type: 'object', properties: bodyProps, required } } } } }
      : {}),
    responses,
    security: e.auth === 'public' ? [] : e.auth === 'optional' ? [{}, { privateToken: [] }, { bearer: [] }] : [{ privateToken: [] }, { bearer: [] }],
    'x-auth': e.auth,
  }
}

export function buildOpenApi(groups: Record<string, Contract>, version: string, serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [tag, endpoints] of Object.entries(groups)) {
    for (const [name, e] of Object.entries(endpoints)) {
      const path = e.path.replace(/:(\w+)/g, '{$1}')
      paths[path] ??= {}
      paths[path][e.method.toLowerCase()] = { tags: [tag], ...operation(name, e) }
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'collab GitLab v4 API', version },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        privateToken: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  }
}
