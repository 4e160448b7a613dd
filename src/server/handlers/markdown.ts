// The Markdown API.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { renderMarkdownFor } from '../services/markup/index.js'

export const markdownHandlers = {
  renderMarkdown: async (input, ctx) => ({ status: 201, body: { html: await renderMarkdownFor(ctx, input) } }),
} satisfies Handlers<typeof contract.markdown>
