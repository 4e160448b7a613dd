// defineEndpoint: the single declaration of an endpoint that the server mount, OpenAPI, client and tests all read.
import { z } from 'zod'
import { Pagination } from './params.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

/**
 * Who may call: `public` needs no credentials, `optional` reads the caller when present,
 * `required` needs a user, `admin` needs an administrator.
 */
export type AuthRule = 'public' | 'optional' | 'required' | 'admin'

/** Token scopes that satisfy an endpoint; `read` accepts api or read_api, `user` also read_user, `rotate` api or self_rotate. */
export type ScopeRule = 'read' | 'write' | 'user' | 'rotate'

type Shape = z.core.$ZodLooseShape

/** Response schemas by status; null for an empty body (204, 304). */
export type Responses = Record<number, z.ZodType | null>

export interface EndpointSpec<P extends Shape, I extends Shape, R extends Responses = Responses> {
  method: Method
  path: string
  summary: string
  /** Path parameters. */
  params?: P
  /** Query (GET/DELETE) or body (POST/PUT) parameters; GitLab merges every source, so both are read. */
  input?: I
  responses: R
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
  /** A CI job token (JOB-TOKEN, job_token, Bearer glcbt-…) may call it, as GitLab's job_token_allowed routes. */
  jobToken?: boolean
  /**
   * HTTP Basic credentials count too, as on GitLab's package routes (basic_auth_personal_access_token): any username
   * with a token as password, and `gitlab-ci-token:<job token>` where `jobToken` allows job tokens.
   */
  basicAuth?: boolean
  /** Path params that may hold unencoded `/` (GitLab's `ref_name: /.+/`, `*artifact_path`); the rest stop at `/`. */
  greedy?: readonly string[]
  /**
   * Grape's `at_least_one_of`: a request naming none of these attributes (by key, whatever its value) answers 400
   * `{"error":"a, b are missing, at least one parameter must be provided"}`. GitLab's list, in its order.
   */
  atLeastOneOf?: readonly string[]
  /** Request headers the handler reads (lower case), handed over as `ctx.headers`: the runner protocol's JOB-TOKEN, Content-Range. */
  headers?: readonly string[]
  /** The body is bytes, not parameters (a job's log chunk): handed over as `ctx.rawBody`. */
  rawBody?: boolean
  /**
   * Multipart files are written to temporary files as they arrive instead of being held in memory (artifact archives,
   * capped by max_artifacts_size). `'packages'`: the package registry's uploads, capped by the plan limit
   * generic_packages_max_file_size; with `rawBody`, the whole body is the file, handed over as `ctx.receiveBody()`.
   */
  uploadsToDisk?: boolean | 'packages'
  /** The handler may wait for an event (a runner's job request): it is told through `ctx.aborted` when the client hangs up. */
  longPoll?: boolean
}

export interface Endpoint<P extends Shape = Shape, I extends Shape = Shape, R extends Responses = Responses> extends EndpointSpec<P, I, R> {
  auth: AuthRule
  scope: ScopeRule
  paginated: boolean
  schema: z.ZodObject<P & I>
}

export function defineEndpoint<P extends Shape = {}, I extends Shape = {}, R extends Responses = Responses>(spec: EndpointSpec<P, I, R>): Endpoint<P, I, R> {
  let schema: z.ZodObject<P & I> | undefined
  return {
    ...spec,
    auth: spec.auth ?? 'required',
    scope: spec.scope ?? (spec.method === 'GET' ? 'read' : 'write'),
    paginated: spec.paginated ?? false,
    // Built on first use: a request, OpenAPI or a test reads it; the server's start needs only the routes.
    get schema() {
      return (schema ??= z.object({ ...(spec.input ?? {}), ...(spec.paginated ? Pagination : {}), ...(spec.params ?? {}) } as P & I))
    },
  }
}

export type EndpointInput<E> = E extends Endpoint<infer P, infer I, any> ? z.output<z.ZodObject<P & I>> : never

/** What a successful call answers: the output type of its 2xx body schemas. */
export type EndpointResponse<E> = E extends Endpoint<any, any, infer R> ? z.output<Exclude<R[keyof R], null>> : never

/** The path params of an endpoint, as a caller fills them in. */
export type EndpointPathParams<E> = E extends Endpoint<infer P, any, any> ? { [K in keyof P]: string | number } : never

export type Contract = Record<string, Endpoint<any, any, any>>
