// The one way pages build HTML: a tagged template that escapes every interpolated value unless it is already Html.
// Markup can only come from a template literal written in this code or from a renderer that sanitises (markdown,
// highlight.js), so hostile text anywhere in the data stays text.

import { closeBidi, closeBidiInMarkup } from './bidi.js'

export class Html {
  constructor(readonly text: string) {}
  toString() { return this.text }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** C0 controls (but tab and newlines) and DEL: invalid in HTML, and an ANSI escape in a title would hide as nothing. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g
/** Shown as their Unicode control pictures (␛ for ESC), so they stay visible text. */
const visible = (s: string) => s.replace(CONTROLS, (c) => String.fromCharCode(c === '\u007f' ? 0x2421 : 0x2400 + c.charCodeAt(0)))

export const escapeHtml = (s: string) => closeBidi(visible(s.replace(/[&<>"']/g, (c) => ESCAPES[c])))

type Value = Html | string | number | boolean | null | undefined | readonly Value[]

function piece(v: Value): string {
  if (v === null || v === undefined || v === false || v === true) return ''
  if (v instanceof Html) return v.text
  if (Array.isArray(v)) return v.map(piece).join('')
  return escapeHtml(String(v))
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1]
  return new Html(out)
}

/** Trusted markup: only for the output of a sanitising renderer. */
export const trusted = (text: string) => new Html(closeBidiInMarkup(visible(text)))

/** A path segment or query value in a URL we write; `/` kept where a path of files or refs is meant. */
export const pathPart = (s: string) => encodeURIComponent(s).replace(/%2F/g, '/')

export function query(params: Record<string, string | number | undefined | null>): string {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
  return parts.length ? `?${parts.join('&')}` : ''
}
