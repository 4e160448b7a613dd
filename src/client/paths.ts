// API paths from the contract: a verb names an endpoint and fills its path params; no path is spelled by hand.
import type { Method } from '../contract/define.js'
import { ROUTES, type EndpointName, type PathParams, type ResponseOf } from '../contract/routes.js'

/** `42` stays `42`; `group/sub/project` becomes `group%2Fsub%2Fproject`, as GitLab wants ids, paths, refs and file paths. */
export const encodeRef = (ref: string | number): string => encodeURIComponent(String(ref))

/** A request line of the API; `T` is the type of a successful answer's body. */
export interface Route<T = unknown> {
  method: Method
  /** Relative to the API root, params filled in and encoded. */
  path: string
  /** Never set: carries the response type to the client's methods. */
  readonly response?: T
}

export function route<N extends EndpointName>(name: N, params: PathParams<N>): Route<ResponseOf<N>> {
  const { method, path } = ROUTES[name]
  const values = params as Record<string, string | number>
  return { method, path: path.replace(/:(\w+)/g, (_, key: string) => encodeRef(values[key])) }
}
