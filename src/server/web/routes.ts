// Mounts the web pages at GitLab's paths beside the API and git's smart HTTP (which are mounted first and win).
// This file is the one registry of the pages' paths, as GitLab's config/routes.rb is: a page is a function of pages/
// taking (ctx, req, res, …) and is declared by its route here; test/layering/registries.test.ts fails on a page
// that neither this file nor a routed page reaches.
import type { ServerResponse } from 'node:http'
import { CollabError } from '../../core/errors.js'
import type { AppDeps } from '../context.js'
import type { RouteRequest, Router } from '../http/router.js'
import { webContext, type WebContext } from './context.js'
import { html } from './html.js'
import { document, notFoundBody, redirect, sendHtml, sendStylesheet, STYLESHEET_PATH } from './layout.js'
import { homePage, signInPage, signOut } from './pages/home.js'
import { issuePage, issuePost, issuesPage } from './pages/issues.js'
import { commitCommentPost, commitPage, commitsPage } from './pages/commits.js'
import { jobTraceJson, PAGE_SCRIPT_PATH, sendPageScript } from './pages/job-follow.js'
import { LOG_STYLESHEET_PATH, sendLogStylesheet } from './pages/job-log.js'
import { jobPost, pipelinePost } from './pages/ci-actions.js'
import { jobPage } from './pages/jobs.js'
import { mergeRequestPost, type MergeRequestAction } from './pages/merge-request-page.js'
import { mergeRequestsGet } from './pages/merge-requests.js'
import { pipelinePage, pipelinesPage } from './pages/pipelines.js'
import { environmentPage, environmentsPage } from './pages/environments.js'
import { archiveGet, releaseEditPost, releasesGet } from './pages/releases.js'
import { tagsGet } from './pages/tags.js'
import { comparePage, parseRange } from './pages/compare.js'
import { packagesGet } from './pages/packages.js'
import { blobPage, projectPage, rawFile, treePage } from './pages/project.js'
import { groupPage } from './pages/groups.js'
import { milestonesPage } from './pages/milestones.js'
import { personalSnippetPage, projectSnippetPage, projectSnippetsPage, snippetRaw } from './pages/snippets.js'
import { namespacePage } from './pages/users.js'
import { wikiIndex, wikiPage, wikiPagesPage } from './pages/wikis.js'
import { createIssuePost, editIssuePage, editIssuePost, issueReplyPost, newIssuePage } from './pages/issue-forms.js'
import { createMergeRequestPost, editMergeRequestPage, editMergeRequestPost, newMergeRequestPage } from './pages/merge-request-forms.js'
import { mergeRequestReviewPost, type ReviewAction } from './pages/merge-request-review.js'
import { createProjectPost, newProjectPage } from './pages/project-new.js'

type Page = (ctx: WebContext, req: RouteRequest, res: ServerResponse) => Promise<void>

/**
 * `/<namespace…>/<project>` and its `/-/…` pages. Namespaces nest, so the project is the shortest run of segments
 * followed by `/-/` or the end; a path with a `.git` segment is git's, never a page. `rest` keeps its `/-/` so that the
 * group always matches (an unmatched group would be decoded as the text "undefined"). GitLab's reserved top-level
 * paths are never projects, so `GET /oauth/token` keeps its 405.
 */
const PROJECT = String.raw`^\/(?![^?]*\.git(?:\/|$))(?!(?:api|oauth|users|groups|admin|dashboard|explore|help|profile|uploads|assets|search|-)\/)(?<project>[^/]+(?:\/[^/]+)+?)`
const PROJECT_PAGE = new RegExp(String.raw`${PROJECT}(?<rest>(?:\/-\/.*?)?)\/?$`, 'i')
/** `/groups/<path…>` (of its `/-/` pages, only milestones so far) and a lone `/<username>` (or a top-level group's path). */
const GROUP_PAGE = /^\/groups\/(?<group>[^/]+(?:\/(?!-(?:\/|$))[^/]+)*?)\/?$/i
const GROUP_MILESTONES = /^\/groups\/(?<group>[^/]+(?:\/(?!-(?:\/|$))[^/]+)*?)\/-\/milestones(?:\/(?<iid>\d{1,9}))?\/?$/i
const NAMESPACE_PAGE = /^\/(?![^/]*\.git\/?$)(?!(?:api|oauth|users|groups|-)\/?$)(?<segment>[^/]+?)\/?$/i
const PERSONAL_SNIPPET = /^\/-\/snippets\/(?<id>\d{1,9})(?<rest>(?:\/raw(?:\/.*)?)?)\/?$/i
const ISSUE_ACTION = new RegExp(String.raw`${PROJECT}\/-\/issues\/(?<iid>\d{1,9})\/(?<action>notes|close|reopen)\/?$`, 'i')
const MR_ACTION = new RegExp(String.raw`${PROJECT}\/-\/merge_requests\/(?<iid>\d{1,9})\/(?<action>notes|close|reopen|merge)\/?$`, 'i')
const COMMIT_COMMENT = new RegExp(String.raw`${PROJECT}\/-\/commit\/(?<sha>[0-9a-f]{4,64})\/comments\/?$`, 'i')
const JOB_ACTION = new RegExp(String.raw`${PROJECT}\/-\/jobs\/(?<id>\d{1,9})\/(?<action>retry|cancel|play)\/?$`, 'i')
const PIPELINE_ACTION = new RegExp(String.raw`${PROJECT}\/-\/pipelines\/(?<id>\d{1,9})\/(?<action>retry|cancel)\/?$`, 'i')
/** The create, edit and review forms: new issues and merge requests, their edit pages, threads, drafts and approvals. */
const ISSUABLE_CREATE = new RegExp(String.raw`${PROJECT}\/-\/(?<kind>issues|merge_requests)\/?$`, 'i')
const ISSUABLE_EDIT = new RegExp(String.raw`${PROJECT}\/-\/(?<kind>issues|merge_requests)\/(?<iid>\d{1,9})\/edit\/?$`, 'i')
const MR_REVIEW = new RegExp(String.raw`${PROJECT}\/-\/merge_requests\/(?<iid>\d{1,9})\/(?:(?<action>discussions|approve|unapprove|draft_notes\/bulk_publish)|discussions\/(?<discussion>[0-9a-f]{40})\/(?<threadAction>reply|resolve|unresolve)|draft_notes\/(?<draft>\d{1,9})\/delete)\/?$`, 'i')
const ISSUE_REPLY = new RegExp(String.raw`${PROJECT}\/-\/issues\/(?<iid>\d{1,9})\/discussions\/(?<discussion>[0-9a-f]{40})\/reply\/?$`, 'i')
const RELEASE_EDIT = new RegExp(String.raw`${PROJECT}\/-\/releases\/(?<tag>.+)\/edit\/?$`, 'i')

/** A path outside the API, OAuth and git: the pages' (and uploads') ground. */
export const isPagePath = (path: string) => !/^\/(api|oauth)(\/|$)/i.test(path) && !/\.git(\/|$)/.test(path)

/** Unknown GET paths outside the API, OAuth and git answer an HTML page; those keep their JSON 404. */
export const isWebPath = (req: RouteRequest) => (req.method === 'GET' || req.method === 'HEAD') && isPagePath(req.path)

export function webNotFound(app: AppDeps, req: RouteRequest, res: ServerResponse) {
  sendHtml(req, res, 404, notFoundBody(webContext(app, req)))
}

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


async function projectGet(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const { project } = req.params
  const rest = req.params.rest.slice(3)
  if (project.endsWith('.git')) return webNotFound(ctx.app, req, res)
  if (rest === '') return projectPage(ctx, req, res, project)
  const wikiOrSnippet = /^(wikis|snippets)(?:\/(.*))?$/.exec(rest)
  if (wikiOrSnippet) return wikiOrSnippetGet(ctx, req, res, project, wikiOrSnippet[1], wikiOrSnippet[2])
  const refPage = /^(releases|archive|tags)(?:\/(.*))?$/.exec(rest)
  if (refPage?.[1] === 'releases') return releasesGet(ctx, req, res, project, refPage[2])
  if (refPage?.[1] === 'tags') return tagsGet(ctx, req, res, project, refPage[2])
  if (refPage?.[1] === 'archive' && refPage[2]) return archiveGet(ctx, req, res, project, refPage[2])
  const compare = /^compare\/(.+)$/.exec(rest)
  const range = compare && parseRange(compare[1])
  if (range) return comparePage(ctx, req, res, project, range)
  const packages = /^packages(?:\/(.*))?$/.exec(rest)
  if (packages) return packagesGet(ctx, req, res, project, packages[1])
  const [, kind, tail] = /^(tree|blob|raw|issues|merge_requests|commits|commit|pipelines|jobs|milestones|environments)(?:\/(.*))?$/.exec(rest) ?? []
  if (kind === 'tree') return treePage(ctx, req, res, project, tail ?? '')
  if (kind === 'blob' && tail) return blobPage(ctx, req, res, project, tail)
  if (kind === 'raw' && tail) return rawFile(ctx, req, res, project, tail)
  if (kind === 'issues' && tail === undefined) return issuesPage(ctx, req, res, project)
  if (kind === 'issues' && tail === 'new') return newIssuePage(ctx, req, res, project)
  if (kind === 'merge_requests' && tail === 'new') return newMergeRequestPage(ctx, req, res, project)
  const edit = /^(\d{1,9})\/edit$/.exec(tail ?? '')
  if (kind === 'issues' && edit) return editIssuePage(ctx, req, res, project, Number(edit[1]))
  if (kind === 'merge_requests' && edit) return editMergeRequestPage(ctx, req, res, project, Number(edit[1]))
  if (kind === 'issues' && /^\d{1,9}$/.test(tail ?? '')) return issuePage(ctx, req, res, project, Number(tail))
  if (kind === 'merge_requests') return mergeRequestsGet(ctx, req, res, project, tail)
  if (kind === 'commits') return commitsPage(ctx, req, res, project, tail ?? '')
  if (kind === 'commit' && /^[0-9a-f]{4,64}$/i.test(tail ?? '')) return commitPage(ctx, req, res, project, tail!)
  if (kind === 'pipelines' && tail === undefined) return pipelinesPage(ctx, req, res, project)
  if (kind === 'pipelines' && /^\d{1,9}$/.test(tail ?? '')) return pipelinePage(ctx, req, res, project, Number(tail))
  if (kind === 'jobs' && /^\d{1,9}$/.test(tail ?? '')) return jobPage(ctx, req, res, project, Number(tail))
  if (kind === 'jobs' && /^\d{1,9}\/trace\.json$/.test(tail ?? '')) return jobTraceJson(ctx, req, res, project, parseInt(tail!, 10))
  if (kind === 'environments' && tail === undefined) return environmentsPage(ctx, req, res, project)
  if (kind === 'environments' && /^\d{1,9}$/.test(tail ?? '')) return environmentPage(ctx, req, res, project, Number(tail))
  if (kind === 'milestones' && (tail === undefined || /^\d{1,9}$/.test(tail))) return milestonesPage(ctx, req, res, { project }, tail === undefined ? undefined : Number(tail))
  webNotFound(ctx.app, req, res)
}

function wikiOrSnippetGet(ctx: WebContext, req: RouteRequest, res: ServerResponse, project: string, kind: string, tail: string | undefined) {
  if (kind === 'wikis' && (tail === undefined || tail === '')) return wikiIndex(ctx, req, res, project)
  if (kind === 'wikis' && tail === 'pages') return wikiPagesPage(ctx, req, res, project)
  if (kind === 'wikis') return wikiPage(ctx, req, res, project, tail!)
  if (tail === undefined || tail === '') return projectSnippetsPage(ctx, req, res, project)
  const [, id, raw] = /^(\d{1,9})(?:\/raw(?:\/(.*))?)?$/.exec(tail ?? '') ?? []
  if (id && tail!.includes('/raw')) return snippetRaw(ctx, req, res, project, Number(id), raw ?? '')
  if (id) return projectSnippetPage(ctx, req, res, project, Number(id))
  webNotFound(ctx.app, req, res)
}

async function personalSnippetGet(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const { id, rest } = req.params
  if (rest === '') return personalSnippetPage(ctx, req, res, Number(id))
  return snippetRaw(ctx, req, res, null, Number(id), rest.replace(/^\/raw\/?/, ''))
}

// An unmatched optional group arrives as the text "undefined": only digits are an iid.
const groupMilestones = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  milestonesPage(ctx, req, res, { group: req.params.group }, /^\d{1,9}$/.test(req.params.iid ?? '') ? Number(req.params.iid) : undefined)

/** Only the forms' own paths take a POST: anything else falls through to the API's JSON 404 or 405. */
const issueAction = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  issuePost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.action as 'notes' | 'close' | 'reopen')

const mergeRequestAction = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  mergeRequestPost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.action.toLowerCase() as MergeRequestAction)
const commitComment = (ctx: WebContext, req: RouteRequest, res: ServerResponse) => commitCommentPost(ctx, req, res, req.params.project, req.params.sha)
const jobAction = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  jobPost(ctx, req, res, req.params.project, Number(req.params.id), req.params.action.toLowerCase() as 'retry' | 'cancel' | 'play')
const pipelineAction = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  pipelinePost(ctx, req, res, req.params.project, Number(req.params.id), req.params.action.toLowerCase() as 'retry' | 'cancel')

const issuableCreate = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  (req.params.kind.toLowerCase() === 'issues' ? createIssuePost : createMergeRequestPost)(ctx, req, res, req.params.project)
const issuableEdit = (ctx: WebContext, req: RouteRequest, res: ServerResponse) =>
  (req.params.kind.toLowerCase() === 'issues' ? editIssuePost : editMergeRequestPost)(ctx, req, res, req.params.project, Number(req.params.iid))

function mergeRequestReview(ctx: WebContext, req: RouteRequest, res: ServerResponse) {
  const { project, iid, action, discussion, threadAction, draft } = req.params
  // Unmatched optional groups arrive as the text "undefined" (see PROJECT_PAGE).
  const given = (v: string | undefined) => (v && v !== 'undefined' ? v : undefined)
  const what = (given(threadAction) ?? (given(draft) ? 'delete_draft' : given(action)?.replace('draft_notes/', '')))!.toLowerCase() as ReviewAction
  return mergeRequestReviewPost(ctx, req, res, project, Number(iid), what, given(discussion) ?? given(draft))
}

export function mountWeb(router: Router, app: AppDeps) {
  router.get('/-/collab/:file', (req, res) =>
    req.path === STYLESHEET_PATH ? sendStylesheet(req, res) : req.path === LOG_STYLESHEET_PATH ? sendLogStylesheet(req, res)
      : req.path === PAGE_SCRIPT_PATH ? sendPageScript(req, res) : webNotFound(app, req, res))
  router.get('/', page(app, homePage))
  router.get('/users/sign_in', page(app, signInPage))
  router.get('/projects/new', page(app, newProjectPage))
  router.post('/projects', page(app, createProjectPost))
  router.post('/users/sign_out', page(app, signOut))
  router.get(PROJECT_PAGE, page(app, projectGet))
  router.get(GROUP_MILESTONES, page(app, groupMilestones))
  router.get(GROUP_PAGE, page(app, (ctx, req, res) => groupPage(ctx, req, res, req.params.group)))
  router.get(PERSONAL_SNIPPET, page(app, personalSnippetGet))
  router.get(NAMESPACE_PAGE, page(app, (ctx, req, res) => namespacePage(ctx, req, res, req.params.segment)))
  router.post(ISSUE_ACTION, page(app, issueAction))
  router.post(MR_ACTION, page(app, mergeRequestAction))
  router.post(COMMIT_COMMENT, page(app, commitComment))
  router.post(JOB_ACTION, page(app, jobAction))
  router.post(PIPELINE_ACTION, page(app, pipelineAction))
  router.post(ISSUABLE_CREATE, page(app, issuableCreate))
  router.post(ISSUABLE_EDIT, page(app, issuableEdit))
  router.post(MR_REVIEW, page(app, mergeRequestReview))
  router.post(ISSUE_REPLY, page(app, (ctx, req, res) => issueReplyPost(ctx, req, res, req.params.project, Number(req.params.iid), req.params.discussion)))
  router.post(RELEASE_EDIT, page(app, (ctx, req, res) => releaseEditPost(ctx, req, res, req.params.project, req.params.tag)))
}
