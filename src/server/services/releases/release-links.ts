// Release asset links (GitLab's Releases::Link and Releases::Links services): validation, CRUD, direct asset paths.
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { transaction } from '../../store/db.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/releases.js'
import type { ReleaseLinkRow, ReleaseRow } from '../../store/releases.js'
import { findRelease, requireReadRelease, requireWriteRelease } from './release-access.js'

export interface LinkInput { name?: string; url?: string; direct_asset_path?: string; filepath?: string; link_type?: ReleaseLinkRow['link_type'] }

/** Releases::Link::FILEPATH_REGEX: a leading slash, then words, dots, dashes and slashes, ending in a letter or digit. */
const FILEPATH = /^\/(?:[-.\w]+\/?)*[\da-zA-Z]+$/
const URL_SCHEMES = ['http:', 'https:', 'ftp:']

/** `direct_asset_path`, or the deprecated `filepath`; absent when neither is given (an update then keeps the old one). */
const filepathOf = (input: LinkInput) => ('direct_asset_path' in input && input.direct_asset_path !== undefined ? input.direct_asset_path
  : 'filepath' in input ? input.filepath : undefined)

type LinkFields = Pick<ReleaseLinkRow, 'name' | 'url' | 'filepath' | 'link_type'>

/** The model's own validations, as full messages (`Url is blocked: …`), for one link. */
function ownErrors(l: LinkFields): { attribute: 'name' | 'url' | 'filepath'; message: string }[] {
  const errors: { attribute: 'name' | 'url' | 'filepath'; message: string }[] = []
  if (!l.url.trim()) errors.push({ attribute: 'url', message: "can't be blank" })
  else {
    let parsed: URL | null = null
    try { parsed = new URL(l.url) } catch { /* reported below */ }
    if (!parsed) errors.push({ attribute: 'url', message: 'must be a valid URL' })
    else if (!URL_SCHEMES.includes(parsed.protocol)) errors.push({ attribute: 'url', message: 'is blocked: Only allowed schemes are http, https, ftp' })
  }
  if (!l.name.trim()) errors.push({ attribute: 'name', message: "can't be blank" })
  if (l.filepath) {
    if (l.filepath.length > 128) errors.push({ attribute: 'filepath', message: 'is too long (maximum is 128 characters)' })
    if (!FILEPATH.test(l.filepath)) errors.push({ attribute: 'filepath', message: 'is in an invalid format' })
  }
  return errors
}

const capitalized = (s: string) => s[0].toUpperCase() + s.slice(1)

/** The uniqueness validations against the release's other links. */
function takenErrors(l: LinkFields, others: ReleaseLinkRow[]) {
  const taken = (attribute: 'name' | 'url' | 'filepath') => others.some((o) => l[attribute] && o[attribute] === l[attribute])
  return (['url', 'name', 'filepath'] as const).filter(taken).map((attribute) => ({ attribute, message: 'has already been taken' }))
}

const refused = (messages: string[]) => new CollabError('VALIDATION_FAILED', messages.join(', '), { status: 400, body: { message: messages } })

function checkLink(l: LinkFields, others: ReleaseLinkRow[]) {
  const errors = [...ownErrors(l), ...takenErrors(l, others)]
  if (errors.length) throw refused(errors.map((e) => `${capitalized(e.attribute)} ${e.message}`))
}

/** A new release's links (assets[links]): GitLab saves them with the release, so a bad one fails the whole release. */
export function checkNewLinks(links: LinkInput[]): LinkFields[] {
  const fields = links.map((l) => ({ name: l.name ?? '', url: l.url ?? '', filepath: filepathOf(l) || null, link_type: l.link_type ?? 'other' }))
  const messages: string[] = []
  for (const l of fields) for (const e of ownErrors(l)) messages.push(`Links ${e.attribute} ${e.message}`)
  // NestedAttributesDuplicatesValidator: one message per attribute with repeated values.
  for (const attribute of ['name', 'url', 'filepath'] as const) {
    const values = fields.map((l) => l[attribute]).filter((v): v is string => !!v)
    const repeated = [...new Set(values.filter((v, i) => values.indexOf(v) !== i))]
    if (repeated.length) messages.push(`Links have duplicate values (${repeated.join(', ')})`)
  }
  if (messages.length) throw new CollabError('VALIDATION_FAILED', `Validation failed: ${messages.join(', ')}`, { status: 400 })
  return fields
}

export function insertLinks(ctx: RequestContext, releaseId: number, links: LinkFields[]) {
  const at = nowIso(ctx)
  for (const l of links) store.insertLink(ctx.app.db, { release_id: releaseId, ...l, created_at: at, updated_at: at })
}

/** ActiveRecord::RecordNotFound as the API answers it (`find_by_tag!`, `links.find`, `find_by_filepath!`). */
const recordNotFound = () => new CollabError('NOT_FOUND', '404 Not found', { status: 404 })

function releaseOr404(ctx: RequestContext, p: ProjectView, tag: string): ReleaseRow {
  const r = findRelease(ctx, p, tag)
  if (!r) throw recordNotFound()
  return r
}

function linkOr404(ctx: RequestContext, r: ReleaseRow, id: number): ReleaseLinkRow {
  const l = store.findLink(ctx.app.db, r.id, id)
  if (!l) throw recordNotFound()
  return l
}

export function listLinks(ctx: RequestContext, p: ProjectView, tag: string) {
  requireReadRelease(ctx, p)
  const r = releaseOr404(ctx, p, tag)
  const all = store.linksOf(ctx.app.db, [r.id]).get(r.id)!
  return { release: r, rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: all.length }
}

export function getLink(ctx: RequestContext, p: ProjectView, tag: string, id: number) {
  requireReadRelease(ctx, p)
  const r = releaseOr404(ctx, p, tag)
  return { release: r, link: linkOr404(ctx, r, id) }
}

export function createLink(ctx: RequestContext, p: ProjectView, tag: string, input: LinkInput & { name: string; url: string }) {
  const r = releaseOr404(ctx, p, tag)
  requireWriteRelease(ctx, p, r.tag)
  const db = ctx.app.db
  const fields: LinkFields = { name: input.name, url: input.url, filepath: filepathOf(input) || null, link_type: input.link_type ?? 'other' }
  return transaction(db, () => {
    checkLink(fields, store.linksOf(db, [r.id]).get(r.id)!)
    const at = nowIso(ctx)
    const id = store.insertLink(db, { release_id: r.id, ...fields, created_at: at, updated_at: at })
    return { release: r, link: store.findLink(db, r.id, id)! }
  })
}

export function updateLink(ctx: RequestContext, p: ProjectView, tag: string, id: number, input: LinkInput) {
  const r = releaseOr404(ctx, p, tag)
  const old = linkOr404(ctx, r, id)
  requireWriteRelease(ctx, p, r.tag)
  const db = ctx.app.db
  const path = filepathOf(input)
  const fields: LinkFields = {
    name: input.name ?? old.name, url: input.url ?? old.url, filepath: path === undefined ? old.filepath : path || null, link_type: input.link_type ?? old.link_type,
  }
  return transaction(db, () => {
    checkLink(fields, store.linksOf(db, [r.id]).get(r.id)!.filter((o) => o.id !== old.id))
    store.updateLink(db, old.id, { ...fields, updated_at: nowIso(ctx) })
    return { release: r, link: store.findLink(db, r.id, old.id)! }
  })
}

export function deleteLink(ctx: RequestContext, p: ProjectView, tag: string, id: number) {
  const r = releaseOr404(ctx, p, tag)
  const link = linkOr404(ctx, r, id)
  requireWriteRelease(ctx, p, r.tag)
  store.deleteLink(ctx.app.db, link.id)
  return { release: r, link }
}

/** `…/releases/:tag/downloads/*path`: the link whose filepath this is, for a redirect to its URL. */
export function linkAtFilepath(ctx: RequestContext, r: ReleaseRow, path: string): ReleaseLinkRow {
  const link = store.findLinkByFilepath(ctx.app.db, r.id, `/${path.replace(/^\/+/, '')}`)
  if (!link) throw recordNotFound()
  return link
}
