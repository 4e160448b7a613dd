// defineEndpoint: the single declaration of an endpoint that the server mount, OpenAPI, client and tests all read.
import { z } from 'zod'
import { Pagination } from './params.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

/**
 * Who may call: `public` needs no credentials, `optional` reads the caller when present,
 * `required` needs a user, `admin` needs an administrator.
 */
export type AuthRule = 'public' | 'optional' | 'required' | 'admin'

/** Token scopes that satisfy an endpoint; `read` accepts api or read_api, `user` also read_user. */
export type ScopeRule = 'read' | 'write' | 'user'

type Shape = z.core.$ZodLooseShape

export interface EndpointSpec<P extends Shape, I extends Shape> {
  method: Method
  path: string
  summary: string
  /** Path parameters. */
  params?: P
  /** Query (GET/DELETE) or body (POST/PUT) parameters; GitLab merges every source, so both are read. */
  input?: I
  responses: Record<number, z.ZodType | null>
  auth?: AuthRule
  scope?: ScopeRule
  paginated?: boolean
  /** Response is not JSON (raw files, archives). */
  raw?: boolean
  /**
   * The response is a function of the database, the caller and the URL alone (no git, no clock), so the server may
   * answer a repeated GET from its response cache until the next write. A function decides per request's parameters.
   */
  cacheable?: boolean | ((params: Record<string, unknown>) => boolean)
}

export interface Endpoint<P extends Shape = Shape, I extends Shape = Shape> extends EndpointSpec<P, I> {
  auth: AuthRule
  scope: ScopeRule
  paginated: boolean
  schema: z.ZodObject<P & I>
}

export function defineEndpoint<P extends Shape = {}, I extends Shape = {}>(spec: EndpointSpec<P, I>): Endpoint<P, I> {
  const input = { ...(spec.input ?? {}), ...(spec.paginated ? Pagination : {}) } as I
  return {
    ...spec,
    auth: spec.auth ?? 'required',
    scope: spec.scope ?? (spec.method === 'GET' ? 'read' : 'write'),
    paginated: spec.paginated ?? false,
    schema: z.object({ ...input, ...(spec.params ?? {}) } as P & I),
  }
}

export type EndpointInput<E> = E extends Endpoint<infer P, infer I> ? z.output<z.ZodObject<P & I>> : never

export type Contract = Record<string, Endpoint<any, any>>
