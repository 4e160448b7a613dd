// Project wikis: pages by slug and attachments; the wiki service holds the rules.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentWikiPage } from '../present/wikis.js'
import * as wikis from '../services/wikis/index.js'
import { uploadAttachment } from '../services/wikis/index.js'

export const wikiHandlers = {
  listWikiPages: async (input, ctx) => {
    const pages = await wikis.listPages(ctx, wikis.wikiProject(ctx, input.id), input.with_content === true)
    return { status: 200, body: pages.map((page) => presentWikiPage(page)) }
  },
  getWikiPage: async (input, ctx) => {
    const page = await wikis.getPage(ctx, wikis.wikiProject(ctx, input.id), input.slug, input.version)
    const content = input.render_html ? await wikis.renderWikiHtml(ctx.app, page.format, page.content) : page.content
    return { status: 200, body: presentWikiPage({ ...page, content }) }
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
