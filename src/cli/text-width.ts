// Display widths and truncation as terminals show text: string-width counts grapheme clusters, wide characters and
// emoji, and skips escape sequences. Its own module, imported only where a table or a drawing is made: loading it (and
// ICU's segmenter) costs a short command a quarter of its run, and most commands print JSON or tab-separated lines.
import stringWidth from 'string-width'

let graphemes: Intl.Segmenter | undefined

/** Width on screen: wide characters and emoji take two columns, combining marks and escape sequences none. */
export const displayWidth = (text: string): number => stringWidth(text)

/** Cut to `width` columns, ending with `…` when something was cut; a grapheme (a flag, a family emoji) stays whole. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text
  if (width <= 0) return ''
  let out = ''
  let used = 0
  for (const { segment } of (graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text)) {
    const w = stringWidth(segment)
    if (used + w > width - 1) break
    out += segment
    used += w
  }
  return `${out}…`
}

/** Pads to `width` columns by what is seen, so wide characters line up. */
export const padEnd = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)))
