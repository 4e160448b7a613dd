// Project wikis (api-v4.md §Wikis, compat-mr-ci-wiki §2): pages by slug (`%2F`-encoded for subpages) and attachments.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { WikiAttachment, WikiPage, WikiPageBasic } from '../entities/wikis.js'
import { bool, ref, str, text } from '../params.js'

const Id = { id: ref() }
const Slugged = { ...Id, slug: str(1024) }
// Any name: an unknown one answers GitLab's 400 from the service, which also knows the formats that are read only.
const format = () => str(32).optional()

/** A multipart part as the body parser hands it over; anything else under `file` is not a file. */
const file = () => z.custom<{ filename: string; mimeType: string; data: Buffer }>(
  (v) => typeof v === 'object' && v !== null && Buffer.isBuffer((v as { data?: unknown }).data), { error: 'is invalid' },
)

export const listWikiPages = defineEndpoint({
  method: 'GET', path: '/projects/:id/wikis', summary: 'List wiki pages', auth: 'optional',
  params: Id, input: { with_content: bool().optional() }, responses: { 200: z.array(z.union([WikiPage, WikiPageBasic])) },
})

export const getWikiPage = defineEndpoint({
  method: 'GET', path: '/projects/:id/wikis/:slug', summary: 'Get a wiki page', auth: 'optional',
  params: Slugged, input: { render_html: bool().optional(), version: str(64).optional() }, responses: { 200: WikiPage },
})

export const createWikiPage = defineEndpoint({
  method: 'POST', path: '/projects/:id/wikis', summary: 'Create a wiki page',
  params: Id, input: { title: str(), content: text(), format: format() }, responses: { 201: WikiPage },
})

export const editWikiPage = defineEndpoint({
  method: 'PUT', path: '/projects/:id/wikis/:slug', summary: 'Edit a wiki page (a new title moves it)',
  params: Slugged, input: { title: str().optional(), content: text().optional(), format: format() },
  atLeastOneOf: ['content', 'title', 'format'], responses: { 200: WikiPage },
})

export const deleteWikiPage = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/wikis/:slug', summary: 'Delete a wiki page',
  params: Slugged, responses: { 204: null },
})

export const uploadWikiAttachment = defineEndpoint({
  method: 'POST', path: '/projects/:id/wikis/attachments', summary: 'Upload an attachment to the wiki repository',
  params: Id, input: { file: file().optional(), branch: str(1024).optional() }, responses: { 201: WikiAttachment },
})
