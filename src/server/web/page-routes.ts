// How a module of pages/ declares its pages: `export const routes: PageRoute[]`, read by scripts/registries.mjs into
// pages.generated.ts and mounted by routes.ts. Nothing else lists a page.
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../http/router.js'
import { webContext, type WebContext } from './context.js'
import type { AppDeps } from '../context.js'
import { notFoundBody, sendHtml } from './layout.js'

export type Page = (ctx: WebContext, req: RouteRequest, res: ServerResponse) => Promise<void>
/** A page of a project: `rest` is the path after the project's `/-/`, matched by the route's pattern. */
export type ProjectPage = (ctx: WebContext, req: RouteRequest, res: ServerResponse, project: string, match: RegExpExecArray) => Promise<void> | void

// Each kind leaves the others' keys undefined, so that a route's `page` is typed by the keys it has.
export type PageRoute =
  /** At a path of its own (find-my-way's `:param` syntax), or a pattern whose named groups become `req.params`. */
  | { method: 'GET' | 'POST'; path: string | RegExp; page: Page; rest?: undefined; asset?: undefined }
  /** Under `/<namespace…>/<project>/-/`: `rest` is matched whole (no trailing slash), case-sensitive as Rails' routes. */
  | { method: 'GET'; rest: RegExp; page: ProjectPage; path?: undefined; asset?: undefined }
  /** A static file the pages load (a stylesheet, the script): no session, no page around it. */
  | { method: 'GET'; path: string; asset: (req: RouteRequest, res: ServerResponse) => void; page?: undefined; rest?: undefined }

/**
 * `/<namespace…>/<project>` and its `/-/…` pages. Namespaces nest, so the project is the shortest run of segments
 * followed by `/-/` or the end; a path with a `.git` segment is git's, never a page. GitLab's reserved top-level paths
 * are never projects, so `GET /oauth/token` keeps its 405.
 */
export const PROJECT = String.raw`^\/(?![^?]*\.git(?:\/|$))(?!(?:api|oauth|users|groups|admin|dashboard|explore|help|profile|uploads|assets|search|-)\/)(?<project>[^/]+(?:\/[^/]+)+?)`

/** A form's path under a project's `/-/` (a source of named groups), for a POST route. */
export const underProject = (rest: string) => new RegExp(String.raw`${PROJECT}\/-\/${rest}\/?$`, 'i')

export function webNotFound(app: AppDeps, req: RouteRequest, res: ServerResponse) {
  sendHtml(req, res, 404, notFoundBody(webContext(app, req)))
}
