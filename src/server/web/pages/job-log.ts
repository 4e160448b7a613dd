// Job logs as HTML under a CSP that allows no inline style: ansi_up parses the escapes and escapes the text, and every
// style it would write inline (bold, faint, italic, underline, 256-colour and truecolour) becomes a class of the log
// stylesheet below. The 16 and the 256 colours have a class each; a truecolour takes the nearest of the 256.
import { type PageRoute } from '../page-routes.js'
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { AnsiUp } from 'ansi_up'
import type { RouteRequest } from '../../http/router.js'
import { trusted, type Html } from '../html.js'

const NAMES = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white']
const NAMED = [...NAMES, ...NAMES.map((n) => `bright-${n}`)]
/** What a log's 16 colours look like on its dark background (text, then background). */
const SHOWN_FG = ['#6e6e6e', '#f66', '#5c5', '#ec5', '#69f', '#d6d', '#5cc', '#e8e8e8', '#999', '#f88', '#7e7', '#fe7', '#8af', '#f9f', '#8ee', '#fff']
const SHOWN_BG = ['#000', '#a22', '#282', '#a80', '#24a', '#a2a', '#288', '#ccc', '#555', '#d44', '#4a4', '#cb3', '#46c', '#c4c', '#4aa', '#fff']

/** xterm's 256 colours: ansi_up's values for the first 16 (what it reports), then the 6×6×6 cube and 24 greys. */
const PALETTE: number[][] = (() => {
  const out = [[0, 0, 0], [187, 0, 0], [0, 187, 0], [187, 187, 0], [0, 0, 187], [187, 0, 187], [0, 187, 187], [255, 255, 255],
    [85, 85, 85], [255, 85, 85], [0, 255, 0], [255, 255, 85], [85, 85, 255], [255, 85, 255], [85, 255, 255], [255, 255, 255]]
  const levels = [0, 95, 135, 175, 215, 255]
  for (const r of levels) for (const g of levels) for (const b of levels) out.push([r, g, b])
  for (let i = 0; i < 24; i++) out.push([8 + 10 * i, 8 + 10 * i, 8 + 10 * i])
  return out
})()

const hex = (rgb: number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`

/** The palette entry nearest to a colour (squared distance); an exact 256-colour comes back as its own index. */
function nearest(rgb: number[]): number {
  let best = 0
  let bestDistance = Infinity
  for (let i = 16; i < PALETTE.length; i++) {
    const d = PALETTE[i].reduce((sum, c, k) => sum + (c - rgb[k]) ** 2, 0)
    if (d < bestDistance) [best, bestDistance] = [i, d]
  }
  return best
}

const colourClass = (index: number, layer: 'fg' | 'bg') => (index < 16 ? `ansi-${NAMED[index]}-${layer}` : `ansi-${index}-${layer}`)

const LOG_CSS = [
  '.ansi-bold{font-weight:700}.ansi-faint{opacity:.7}.ansi-italic{font-style:italic}.ansi-underline{text-decoration:underline}',
  ...NAMED.map((n, i) => `.ansi-${n}-fg{color:${SHOWN_FG[i]}}.ansi-${n}-bg{background:${SHOWN_BG[i]}}`),
  ...PALETTE.slice(16).map((rgb, i) => `.ansi-${i + 16}-fg{color:${hex(rgb)}}.ansi-${i + 16}-bg{background:${hex(rgb)}}`),
].join('\n')

const LOG_STYLESHEET = Buffer.from(LOG_CSS)
export const LOG_STYLESHEET_PATH = `/-/collab/log-${createHash('sha256').update(LOG_STYLESHEET).digest('hex').slice(0, 16)}.css`

export function sendLogStylesheet(req: RouteRequest, res: ServerResponse) {
  res.writeHead(200, {
    'Content-Type': 'text/css; charset=utf-8', 'Content-Length': String(LOG_STYLESHEET.length),
    'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : LOG_STYLESHEET)
}

/** ansi_up's inline declarations, set to these words so that they can be told apart and turned into classes. */
const DECORATIONS: Record<string, string> = { bold: 'ansi-bold', faint: 'ansi-faint', italic: 'ansi-italic', underline: 'ansi-underline' }

function classesOf(style: string): string[] {
  return style.split(';').map((d) => {
    if (DECORATIONS[d]) return DECORATIONS[d]
    const colour = /^(color|background-color):rgb\((\d+),(\d+),(\d+)\)$/.exec(d)
    return colour ? colourClass(nearest(colour.slice(2).map(Number)), colour[1] === 'color' ? 'fg' : 'bg') : ''
  }).filter(Boolean)
}

/** The log as HTML: escaped text in spans that carry only class names of the log stylesheet. */
export function traceHtml(trace: Buffer | string): Html {
  const ansi = new AnsiUp()
  ansi.use_classes = true
  ansi.boldStyle = 'bold'
  ansi.faintStyle = 'faint'
  ansi.italicStyle = 'italic'
  ansi.underlineStyle = 'underline'
  // A log makes no links: OSC 8 hyperlinks lose their sequences and keep their text (ansi_up, allowed no scheme, would
  // drop the text too); lone carriage returns (progress bars) go, as a page cannot overwrite a line.
  ansi.url_allowlist = {}
  const text = trace.toString().replace(/\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '').replace(/\r(?!\n)/g, '')
  // ansi_up escapes every `"` and `<` of the text, so a span's opening tag can only be its own.
  const out = ansi.ansi_to_html(text).replace(/<span style="([^"]*)"(?: class="([^"]*)")?>/g, (_, style: string, classes?: string) =>
    `<span class="${[...(classes ? classes.split(' ') : []), ...classesOf(style)].join(' ')}">`)
  return trusted(out)
}

export const routes: PageRoute[] = [
  { method: 'GET', path: LOG_STYLESHEET_PATH, asset: sendLogStylesheet },
]
