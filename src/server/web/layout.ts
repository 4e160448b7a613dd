// The frame of every page: one small stylesheet served under its hash (cached for good), a strict CSP, no script.
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../http/router.js'
import type { WebContext } from './context.js'
import { bannersFor } from '../services/instance/index.js'
import { Html, html, pathPart } from './html.js'

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,sans-serif;color:#1f1f1f;background:#fff}
a{color:#1068bf;text-decoration:none}a:hover{text-decoration:underline}
header{display:flex;gap:1em;align-items:center;padding:.5em 1em;background:#292961;color:#fff}header a{color:#fff}
header .grow{flex:1}header form{display:inline;margin:0}header button{background:none;border:0;color:#fff;cursor:pointer;font:inherit}
main{max-width:1100px;margin:0 auto;padding:1em}h1{font-size:1.5em;margin:.3em 0}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left}
.list{list-style:none;padding:0;margin:0}.list li{padding:.5em;border-bottom:1px solid #eee}
.muted{color:#737278}.label{display:inline-block;padding:0 .5em;border-radius:1em;background:#e9e9f0;margin-right:.25em;font-size:.9em}
.broadcast{padding:.5em 1em;background:#e1d8f9;color:#2f2a6b}.broadcast.theme-blue{background:#cbe2f9;color:#033464}
.broadcast.theme-green{background:#c3e6cd;color:#0a4020}.broadcast.theme-red{background:#fdd4cd;color:#660e00}.broadcast.theme-dark{background:#333238;color:#fff}.broadcast.theme-light{background:#ececef;color:#333238}
.state-opened{color:#108548}.state-closed{color:#1068bf}.badge{font-weight:600}
.state-merged{color:#6e49cb}.label.draft{background:#fdf1dd;color:#8f4700}#merge-widget{clear:right}
.blob{overflow:auto;border:1px solid #ddd}.blob table{width:100%;border:0}.blob td{border:0;padding:0 .5em;vertical-align:top}
.blob .ln{text-align:right;user-select:none;width:1%;white-space:nowrap}.blob .ln a{color:#999}.blob pre{margin:0}
.blob tr:target{background:#fdf5d8}code,pre{font:13px/1.45 ui-monospace,monospace}pre{white-space:pre-wrap}
.markdown pre{background:#f6f6f8;padding:.5em;overflow:auto}.task-list-item{list-style:none}
.note{border:1px solid #ddd;border-radius:4px;padding:.5em 1em;margin:.5em 0}.note.system{border:0;color:#737278;padding:.25em 1em}
form.inline{display:inline}textarea{width:100%;min-height:6em}input,select,button,textarea{font:inherit}
.bar{display:flex;gap:.5em;flex-wrap:wrap;align-items:center;margin:.5em 0}.pager{margin:1em 0;display:flex;gap:1em}
.flash{color:#dd2b0e;font-weight:600}.side{float:right;width:260px;margin-left:1em;border-left:1px solid #eee;padding-left:1em}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#a626a4}.hljs-string,.hljs-attr{color:#50a14f}
.ci-status{display:inline-block;padding:0 .5em;border-radius:1em;background:#ececef;font-size:.9em}.ci-success{background:#c3e6cd;color:#24663b}
.ci-failed{background:#fdd4cd;color:#ae1800}.ci-running,.ci-pending{background:#cbe2f9;color:#0b5cad}.ci-canceled,.ci-skipped{background:#dcdcde}
.stages{display:flex;gap:1em;flex-wrap:wrap}.stage{min-width:200px}.stage h3{text-transform:capitalize;font-size:1em}
.diff td pre{white-space:pre-wrap;display:inline}.diff-add{background:#ecfdf0}.diff-del{background:#fbe9eb}.diff-hunk td,.diff-note td{background:#f4f4f8;color:#737278}
.diff-parallel td{width:50%}.diff-parallel td.ln{width:1%}.diff-file{margin:1em 0}
.trace{background:#1f1f1f;color:#e8e8e8;padding:.75em;overflow:auto;white-space:pre-wrap}
.icon{width:16px;height:16px;vertical-align:text-bottom;fill:currentColor}.tree-icon{color:#737278;width:1%}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.ci-icon{display:inline-flex;align-items:center;gap:.25em;color:#737278}.ci-icon-success{color:#108548}.ci-icon-failed{color:#dd2b0e}
.ci-icon-running,.ci-icon-pending,.ci-icon-created,.ci-icon-preparing,.ci-icon-waiting_for_resource{color:#1068bf}time{white-space:nowrap}.duration{white-space:nowrap;font-variant-numeric:tabular-nums}
.clone{display:flex;gap:.5em;align-items:center;margin:.5em 0}.clone input{flex:1;max-width:40em;font:13px ui-monospace,monospace}
.last-commit{border:1px solid #ddd;border-radius:4px;padding:.5em 1em;margin:.5em 0;display:flex;gap:.75em;align-items:center;flex-wrap:wrap}
.hljs-comment{color:#a0a1a7;font-style:italic}.hljs-number,.hljs-literal{color:#986801}.hljs-title,.hljs-function{color:#4078f2}
.snippet-file{margin:1em 0 1.5em}
`.trim()

export const STYLESHEET = Buffer.from(CSS)
const HASH = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 16)
export const STYLESHEET_PATH = `/-/collab/style-${HASH}.css`

/** No script, no plugin, no framing, forms only to us: a page that is injected into still runs nothing. */
export const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
}

function chrome(ctx: WebContext): Html {
  const who = ctx.user
    ? html`<a href="${ctx.baseUrl}/${pathPart(ctx.user.username)}">@${ctx.user.username}</a>
      <form method="post" action="${ctx.baseUrl}/users/sign_out">${csrfField(ctx)}<button type="submit">Sign out</button></form>`
    : html`<a href="${ctx.baseUrl}/users/sign_in">Sign in</a>`
  return html`<header><a href="${ctx.baseUrl}/"><strong>collab</strong></a><span class="grow"></span>${who}</header>`
}

/** GitLab's banner themes that the stylesheet colours (the CSP allows no inline style, so a free colour cannot be used). */
const THEMES = new Set(['indigo', 'blue', 'green', 'red', 'dark', 'light'])

/** Active broadcast banners, their message as text, in a class for the theme when it is one of ours. */
function banners(ctx: WebContext): Html[] {
  return bannersFor(ctx.app, ctx.path).map((m) =>
    html`<div class="broadcast${THEMES.has(m.theme) ? ` theme-${m.theme}` : ''}" role="status">${m.message}</div>`)
}

export const csrfField = (ctx: WebContext) => html`<input type="hidden" name="authenticity_token" value="${ctx.csrfToken}">`

export function document(ctx: WebContext, title: string, body: Html): string {
  return html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · collab</title><link rel="stylesheet" href="${ctx.baseUrl}${STYLESHEET_PATH}"></head>
<body>${chrome(ctx)}${banners(ctx)}<main>${body}</main></body></html>`.text
}

export function sendHtml(req: RouteRequest, res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  const body = Buffer.from(text)
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8', 'Content-Length': String(body.length), 'Cache-Control': 'no-store', ...SECURITY_HEADERS, ...headers,
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}

export function sendStylesheet(req: RouteRequest, res: ServerResponse) {
  res.writeHead(200, {
    'Content-Type': 'text/css; charset=utf-8', 'Content-Length': String(STYLESHEET.length),
    'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : STYLESHEET)
}

/** 303 after a form; 302 where GitLab's controllers `redirect_to` on a GET (release permalinks and asset downloads). */
export function redirect(res: ServerResponse, location: string, status: 302 | 303 = 303) {
  res.writeHead(status, { Location: location, 'Cache-Control': 'no-store', ...SECURITY_HEADERS })
  res.end()
}

export const notFoundBody = (ctx: WebContext) =>
  document(ctx, 'Not Found', html`<h1>404: Page not found</h1><p>Make sure the address is correct and the page has not moved.</p>`)
