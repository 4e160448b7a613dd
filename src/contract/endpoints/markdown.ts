// The Markdown API (lib/api/markdown.rb): GitLab-flavoured markdown to HTML with the renderer the web pages use.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { bool, str, text } from '../params.js'

export const RenderedMarkdown = z.object({ html: z.string() })

// GitLab 15.3+ requires authentication here (the authenticate_markdown_api flag, on by default).
export const renderMarkdown = defineEndpoint({
  method: 'POST', path: '/markdown', summary: 'Render an arbitrary Markdown document', scope: 'read',
  input: { text: text(), gfm: bool().optional(), project: str(1024).optional() }, responses: { 201: RenderedMarkdown },
})
