// Every endpoint's method and path by name: what the CLI needs at run time. The build replaces this module with the
// table's value (scripts/build.mjs), so the CLI loads neither zod nor the declarations; types stay type-only imports.
import type { EndpointPathParams, EndpointResponse, Method } from './define.js'
import { contract, type ContractTree } from './index.js'

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** Every endpoint by its name; names are unique across groups (a test checks it). */
export type EndpointsByName = UnionToIntersection<ContractTree[keyof ContractTree]>
export type EndpointName = keyof EndpointsByName & string
export type PathParams<N extends EndpointName> = EndpointPathParams<EndpointsByName[N]>
export type ResponseOf<N extends EndpointName> = EndpointResponse<EndpointsByName[N]>

export interface RouteSpec { method: Method; path: string }

export const ROUTES = Object.fromEntries(
  Object.values(contract).flatMap((group) => Object.entries(group).map(([name, e]) => [name, { method: e.method, path: e.path }])),
) as Record<EndpointName, RouteSpec>
