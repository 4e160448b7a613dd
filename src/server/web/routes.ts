// Mounts the web pages at GitLab's paths beside the API and git's smart HTTP (which are mounted first and win). A page
// is declared once, in the `routes` its module of pages/ exports (see page-routes.ts); scripts/registries.mjs gathers
// them into pages.generated.ts, and test/layering/registries.test.ts fails on a page function no route reaches.
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../core/errors.js'
import type { AppDeps } from '../context.js'
import type { RouteRequest, Router } from '../http/router.js'
import { webContext, type WebContext } from './context.js'
import { html } from './html.js'
import { document, notFoundBody, redirect, sendHtml, sendStylesheet, STYLESHEET_PATH } from './layout.js'
import { PROJECT, webNotFound, type Page, type PageRoute } from './page-routes.js'
import { PAGE_ROUTES } from './pages.generated.js'

export { webNotFound }

/** `rest` keeps its `/-/` so that the group always matches (an unmatched group would be decoded as the text "undefined"). */
const PROJECT_PAGE = new RegExp(String.raw`${PROJECT}(?<rest>(?:\/-\/.*?)?)\/?$`, 'i')

/** A path outside the API, OAuth and git: the pages' (and uploads') ground. */
export const isPagePath = (path: string) => !/^\/(api|oauth)(\/|$)/i.test(path) && !/\.git(\/|$)/.test(path)

/** Unknown GET paths outside the API, OAuth and git answer an HTML page; those keep their JSON 404. */
export const isWebPath = (req: RouteRequest) => (req.method === 'GET' || req.method === 'HEAD') && isPagePath(req.path)

function sendWebError(app: AppDeps, ctx: WebContext, req: RouteRequest, res: ServerResponse, err: unknown) {
  if (res.headersSent) return void res.destroy()
  const status = err instanceof CollabError ? err.status : 500
  if (status === 401) return redirect(res, `${ctx.baseUrl}/users/sign_in`)
  // A page the viewer may not use looks like no page at all, as a private project does to the API.
  if (status === 403 || status === 404) return sendHtml(req, res, 404, notFoundBody(ctx))
  if (status >= 500) app.log.error(`web ${req.method} ${req.path}: ${err instanceof Error ? err.stack : String(err)}`)
  const message = status < 500 && err instanceof Error ? err.message : 'Something went wrong on our end.'
  sendHtml(req, res, status, document(ctx, String(status), html`<h1>${status}</h1><p>${message}</p>`))
}

function page(app: AppDeps, fn: Page) {
  return (req: RouteRequest, res: ServerResponse) => {
    const ctx = webContext(app, req)
    return fn(ctx, req, res).catch((err) => sendWebError(app, ctx, req, res, err))
  }
}

const PROJECT_PAGES = PAGE_ROUTES.filter((r): r is Extract<PageRoute, { rest: RegExp }> => r.rest !== undefined)

/** A project's page: the first route whose pattern takes the path after `/-/` (the patterns do not overlap). */
async function projectGet(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const { project } = req.params
  if (project.endsWith('.git')) return webNotFound(ctx.app, req, res)
  const rest = req.params.rest.slice(3)
  for (const route of PROJECT_PAGES) {
    const match = route.rest.exec(rest)
    if (match) return route.page(ctx, req, res, project, match)
  }
  webNotFound(ctx.app, req, res)
}

export function mountWeb(router: Router, app: AppDeps) {
  router.get(STYLESHEET_PATH, sendStylesheet)
  for (const route of PAGE_ROUTES) {
    if (route.asset) router.get(route.path, route.asset)
    else if (!route.rest) router.add(route.method, route.path, page(app, route.page))
  }
  router.get(PROJECT_PAGE, page(app, projectGet))
}
