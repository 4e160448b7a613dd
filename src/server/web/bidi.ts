// Unicode bidi controls in user text (an RLO before "evil.exe" shows "exe.live"): kept, since right-to-left writers use
// them, but every embedding, override and isolate a value opens is closed where the value ends, so it cannot reverse
// the page's own text after it ("#1 by @alice" beside a title), as the Trojan Source advisories ask of renderers.

const OPENS = /[\u202a-\u202e\u2066-\u2068]/
const CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g
const PDF = '\u202c'
const PDI = '\u2069'

/** The terminators `s` leaves owing, innermost first (UBA: a PDI also closes the embeddings inside its isolate). */
export function unclosedBidi(s: string): string {
  if (!OPENS.test(s)) return ''
  const open: string[] = []
  for (const [c] of s.matchAll(CONTROLS)) {
    if (c === PDF) { if (open[open.length - 1] === PDF) open.pop() }
    else if (c === PDI) { const i = open.lastIndexOf(PDI); if (i >= 0) open.length = i }
    else open.push(c >= '\u2066' ? PDI : PDF)
  }
  return open.reverse().join('')
}

export const closeBidi = (s: string) => s + unclosedBidi(s)

/** The same for each text run of sanitised markup (between a tag's `>` and the next `<`); tags are left as they are. */
export const closeBidiInMarkup = (markup: string) =>
  OPENS.test(markup) ? markup.replace(/(^|>)([^<]*)/g, (_, gt: string, text: string) => gt + closeBidi(text)) : markup
