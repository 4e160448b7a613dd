// Project wikis: pages by slug and attachments; the wiki service holds the rules.
import type { contract } from '../../contract/index.js'
import { JsonText } from '../../core/json-text.js'
import type { Handlers } from '../http/mount.js'
import { presentWikiPage } from '../present/wikis.js'
import * as wikis from '../services/wikis/index.js'
import type { WikiPageView } from '../services/wikis/index.js'
import { uploadAttachment } from '../services/wikis/index.js'

const pageJson = (page: WikiPageView & { content: string }) => JSON.stringify(presentWikiPage(page))

export const wikiHandlers = {
  listWikiPages: async (input, ctx) => {
    const pages = await wikis.listPages(ctx, wikis.wikiProject(ctx, input.id), input.with_content === true)
    return { status: 200, body: pages.map((page) => presentWikiPage(page)) }
  },
  getWikiPage: async (input, ctx) => {
    const p = wikis.wikiProject(ctx, input.id)
    if (!input.render_html) return { status: 200, body: new JsonText(await wikis.getPageAnswer(ctx, p, input.slug, input.version, pageJson)) }
    const page = await wikis.getPage(ctx, p, input.slug, input.version)
    return { status: 200, body: presentWikiPage({ ...page, content: await wikis.renderWikiHtml(ctx.app, page.format, page.content) }) }
  },
  createWikiPage: async (input, ctx) => ({
    status: 201, body: presentWikiPage(await wikis.createPage(ctx, wikis.wikiProject(ctx, input.id), input)),
  }),
  editWikiPage: async (input, ctx) => ({
    status: 200, body: presentWikiPage(await wikis.updatePage(ctx, wikis.wikiProject(ctx, input.id), input.slug, input)),
  }),
  deleteWikiPage: async (input, ctx) => {
    await wikis.deletePage(ctx, wikis.wikiProject(ctx, input.id), input.slug)
    return { status: 204 }
  },
  uploadWikiAttachment: async (input, ctx) => ({
    status: 201, body: await uploadAttachment(ctx, wikis.wikiProject(ctx, input.id), input.file, input.branch),
  }),
} satisfies Handlers<typeof contract.wikis>
