// Project wikis (compat-mr-ci-wiki §2): who may read and write, GitLab's slugs, duplicate checks and commit messages.
import { CollabError, forbidden, notFound, unauthorized, validationFailed } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { GitError } from '../../git/types.js'
import { commitWiki, ensureWiki, findPageFile, wikiBranch, wikiCommit, wikiDir, type WikiChange, type WikiPageFile } from '../../git/wiki.js'
import { currentPages, findWikiPage, forgetWikiSnapshot, pageAnswer, readPageText, readPageTexts } from '../../git/wiki-read.js'
import { isWritableFormat, pathOfSlug, retitledSlug, slugOfTitle, type WikiFormat } from '../../git/wiki-paths.js'
import { DEVELOPER, effectiveProjectLevel, MAINTAINER } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'
import { renderMarkdown } from '../markup/markdown.js'
import { findVisibleProject } from '../projects/projects.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { signatureOf } from '../repository/repository.js'

/** Gollum's branch, which GitLab 11 wikis are created on. */
export const WIKI_DEFAULT_BRANCH = 'master'

export interface WikiPageView { format: string; slug: string; title: string; content?: string }

export const wikiGitdir = (ctx: Pick<RequestContext, 'app'>, p: Pick<ProjectView, 'id'>) => wikiDir(ctx.app.layout.repositories, p.id)

export const pageNotFound = () => notFound('Wiki Page')

/** Guests read the wiki of a project they can see, while the wiki is enabled (GitLab's read_wiki); else 403. */
export function wikiProject(ctx: RequestContext, id: string): ProjectView {
  const p = findVisibleProject(ctx, id)
  if (!p.wiki_enabled) throw forbidden()
  return p
}

function requireWikiLevel(ctx: RequestContext, p: ProjectView, level: number) {
  if (!ctx.user) throw unauthorized()
  if (effectiveProjectLevel(ctx, p) < level) throw forbidden()
  if (p.archived) throw forbidden()
}

const view = (page: WikiPageFile, content?: string): WikiPageView =>
  content === undefined ? { format: page.format, slug: page.slug, title: page.title } : { format: page.format, slug: page.slug, title: page.title, content }

export async function listPages(ctx: RequestContext, p: ProjectView, withContent: boolean): Promise<WikiPageView[]> {
  const gitdir = wikiGitdir(ctx, p)
  const pages = await currentPages(gitdir)
  if (!withContent) return pages.map((page) => view(page))
  const texts = await readPageTexts(gitdir, pages)
  return pages.map((page, i) => view(page, texts[i]))
}

export async function getPage(ctx: RequestContext, p: ProjectView, slug: string, version?: string): Promise<WikiPageView & { content: string }> {
  const gitdir = wikiGitdir(ctx, p)
  const page = await findWikiPage(gitdir, slug, version)
  if (!page) throw pageNotFound()
  return { format: page.format, slug: page.slug, title: page.title, content: await readPageText(gitdir, page) }
}

/**
 * A page as the API answers it, rendered by `render` once per version of the page's file and then kept (wiki-read.ts
 * pageAnswer): a read finds the page through the page list, which every edit and push forgets.
 */
export async function getPageAnswer(ctx: RequestContext, p: ProjectView, slug: string, version: string | undefined, render: (page: WikiPageView & { content: string }) => string): Promise<string> {
  const gitdir = wikiGitdir(ctx, p)
  const page = await findWikiPage(gitdir, slug, version)
  if (!page) throw pageNotFound()
  return pageAnswer(gitdir, page, (file, content) => render({ format: file.format, slug: file.slug, title: file.title, content }))
}

const duplicate = (existing: WikiPageFile) =>
  validationFailed({ base: [`Duplicate page: A page with that title already exists in the file ${existing.path}`] })

function checkFormat(format: string | undefined): WikiFormat | undefined {
  if (format === undefined || isWritableFormat(format)) return format
  throw validationFailed({ format: ['does not have a valid value'] })
}

function checkContent(content: string | undefined) {
  if (content !== undefined && content.trim() === '') throw validationFailed({ content: ["can't be blank"] })
}

function slugFor(title: string, retitle?: string): string {
  const slug = retitle === undefined ? slugOfTitle(title) : retitledSlug(retitle, title)
  if (!slug) throw validationFailed({ title: ['is invalid'] })
  return slug
}

/** A page whose slug equals this one ignoring case, other than `except` (the page being renamed). */
const clash = (c: WikiChange, slug: string, except?: WikiPageFile) =>
  c.pages.find((page) => page.slug.toLowerCase() === slug.toLowerCase() && page.path !== except?.path)

/** Runs a wiki commit, turning a ref that moved meanwhile into GitLab's 400 rather than a lost change. */
export async function commitToWiki(ctx: RequestContext, p: ProjectView, change: (c: WikiChange) => Promise<string>, onBranch?: string): Promise<void> {
  const gitdir = wikiGitdir(ctx, p)
  await ensureWiki(gitdir, WIKI_DEFAULT_BRANCH)
  const branch = onBranch ?? (await defaultWikiBranch(ctx, p))
  try {
    await commitWiki(gitdir, { branch, author: signatureOf(ctx), change })
  } catch (err) {
    if (err instanceof GitError) throw new CollabError('WIKI_WRITE_FAILED', err.message, { status: 400, body: { message: err.message } })
    throw err
  } finally {
    forgetWikiSnapshot(gitdir)
  }
}

export interface CreatePageInput { title: string; content: string; format?: string }

export async function createPage(ctx: RequestContext, p: ProjectView, input: CreatePageInput): Promise<WikiPageView> {
  requireWikiLevel(ctx, p, DEVELOPER)
  const format = checkFormat(input.format) ?? 'markdown'
  checkContent(input.content)
  const slug = slugFor(input.title)
  await commitToWiki(ctx, p, async (c) => {
    const existing = clash(c, slug)
    if (existing) throw duplicate(existing)
    await c.tree.set(pathOfSlug(slug, format), await c.writeBlob(Buffer.from(input.content)), '100644')
    return `${ctx.user!.username} created page: ${input.title.trim()}`
  })
  const created = await getPage(ctx, p, slug)
  emitWikiEvent(ctx, p, 'create', created, `${ctx.user!.username} created page: ${input.title.trim()}`)
  return created
}

export interface UpdatePageInput { title?: string; content?: string; format?: string }

export async function updatePage(ctx: RequestContext, p: ProjectView, slug: string, input: UpdatePageInput): Promise<WikiPageView> {
  requireWikiLevel(ctx, p, DEVELOPER)
  if (input.title === undefined && input.content === undefined && input.format === undefined) {
    throw new CollabError('MISSING_ATTRIBUTE', 'content, title, format are missing, at least one parameter must be provided', {
      status: 400, body: { error: 'content, title, format are missing, at least one parameter must be provided' },
    })
  }
  const requested = checkFormat(input.format)
  checkContent(input.content)
  let newSlug = slug
  await commitToWiki(ctx, p, async (c) => {
    const page = await findPageFile(wikiGitdir(ctx, p), await wikiCommit(wikiGitdir(ctx, p)), slug)
    if (!page) throw pageNotFound()
    newSlug = input.title === undefined ? page.slug : slugFor(input.title, page.slug)
    const other = clash(c, newSlug, page)
    if (other) throw duplicate(other)
    const format = requested ?? (isWritableFormat(page.format) ? page.format : 'markdown')
    const content = input.content === undefined ? page.oid : await c.writeBlob(Buffer.from(input.content))
    await c.tree.remove(page.path)
    await c.tree.set(requested || newSlug !== page.slug ? pathOfSlug(newSlug, format) : page.path, content, '100644')
    return `${ctx.user!.username} updated page: ${input.title?.trim() || page.title}`
  })
  const updated = await getPage(ctx, p, newSlug)
  emitWikiEvent(ctx, p, 'update', updated, `${ctx.user!.username} updated page: ${updated.title}`)
  return updated
}

export async function deletePage(ctx: RequestContext, p: ProjectView, slug: string): Promise<void> {
  requireWikiLevel(ctx, p, MAINTAINER)
  const gitdir = wikiGitdir(ctx, p)
  if (!(await findWikiPage(gitdir, slug))) throw pageNotFound()
  let deleted: WikiPageView | undefined
  await commitToWiki(ctx, p, async (c) => {
    const page = await findPageFile(gitdir, await wikiCommit(gitdir), slug)
    if (!page) throw pageNotFound()
    await c.tree.remove(page.path)
    deleted = { ...page, content: '' }
    return `${ctx.user!.username} deleted page: ${page.title}`
  })
  if (deleted) emitWikiEvent(ctx, p, 'delete', deleted, `${ctx.user!.username} deleted page: ${deleted.title}`)
}

/** The wiki page hook of a committed change. */
function emitWikiEvent(ctx: RequestContext, p: ProjectView, action: 'create' | 'update' | 'delete', page: WikiPageView, message: string) {
  emitHookEvent(ctx.app, {
    kind: 'wiki_page', action, projectId: p.id, userId: ctx.user!.id,
    page: { title: page.title, slug: page.slug, format: page.format, content: page.content ?? '', message },
  })
}

export const defaultWikiBranch = (ctx: RequestContext, p: ProjectView) => wikiBranch(wikiGitdir(ctx, p), WIKI_DEFAULT_BRANCH)

export const requireWikiWrite = (ctx: RequestContext, p: ProjectView) => requireWikiLevel(ctx, p, DEVELOPER)

// Raw HTML stays text (the shared renderer has it off), as a page is written by any Developer and read by every Guest.
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** `render_html`: markdown through markdown-it; the other formats, which have no renderer here, as preformatted text. */
export async function renderWikiHtml(app: RequestContext['app'], format: string, content: string): Promise<string> {
  if (format !== 'markdown') return `<pre>${escapeHtml(content)}</pre>`
  return renderMarkdown(app, content)
}
