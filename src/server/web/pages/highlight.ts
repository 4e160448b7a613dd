// Source files as highlighted, line-numbered HTML: highlight.js escapes the code it wraps in spans.
import { html, trusted, type Html } from '../html.js'

/** The part of highlight.js used here, declared locally: its own types pull the DOM library into the whole program. */
interface HLJSApi {
  getLanguage(name: string): object | undefined
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string }
}

// Loaded on the first blob page: an idle server does not carry the grammars. A specifier in a variable keeps
// TypeScript from reading the package's types.
const MODULE = 'highlight.js/lib/common'
let loading: Promise<HLJSApi> | null = null
const hljs = () => (loading ??= import(MODULE).then((m: { default: HLJSApi }) => m.default))

const LIMIT = 512 * 1024

export const isBinary = (b: Buffer) => b.subarray(0, 8000).includes(0)

function languageOf(api: HLJSApi, fileName: string): string | undefined {
  const ext = /\.([A-Za-z0-9+]+)$/.exec(fileName)?.[1]?.toLowerCase()
  const name = ext ?? fileName.toLowerCase()
  return api.getLanguage(name) ? name : undefined
}

/**
 * Line numbers are anchors (`#L12`) in a column of their own, so highlight.js's spans, which may cross lines (a
 * block comment), stay whole in one `<pre>`.
 */
export async function highlighted(fileName: string, text: string): Promise<Html> {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  const numbers = lines.map((_, i) => html`<a id="L${i + 1}" href="#L${i + 1}">${i + 1}</a>\n`)
  const api = text.length <= LIMIT ? await hljs() : null
  const language = api ? languageOf(api, fileName) : undefined
  const code = api && language ? trusted(api.highlight(text, { language, ignoreIllegals: true }).value) : html`${text}`
  return html`<div class="blob"><table><tbody><tr><td class="ln"><pre>${numbers}</pre></td><td><pre><code class="hljs">${code}</code></pre></td></tr></tbody></table></div>`
}
