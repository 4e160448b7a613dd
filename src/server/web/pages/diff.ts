// A commit's diff as HTML tables: unified (one column of lines) or parallel (old beside new, a change's removed lines
// paired with its added ones). Every line is text through the escaping template.
import type { DiffFile } from '../../git/types.js'
import { html, query, type Html } from '../html.js'

interface Line { kind: 'add' | 'del' | 'ctx' | 'hunk' | 'note'; text: string; old?: number; new?: number }

function parse(diff: string): Line[] {
  const out: Line[] = []
  let o = 0
  let n = 0
  for (const raw of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw)
    if (hunk) {
      o = Number(hunk[1])
      n = Number(hunk[2])
      out.push({ kind: 'hunk', text: raw })
    } else if (raw.startsWith('+')) out.push({ kind: 'add', text: raw.slice(1), new: n++ })
    else if (raw.startsWith('-')) out.push({ kind: 'del', text: raw.slice(1), old: o++ })
    else if (raw.startsWith(' ')) out.push({ kind: 'ctx', text: raw.slice(1), old: o++, new: n++ })
    else if (raw !== '') out.push({ kind: 'note', text: raw })
  }
  return out
}

const SIGN = { add: '+', del: '-', ctx: ' ', hunk: '', note: '' }
const num = (v?: number) => (v === undefined ? '' : v)

/**
 * What a page adds to a diff's lines (the merge request's review): a link on a line's number that opens its comment
 * form, and what goes under the line (its threads, the reviewer's drafts, the open form). A line is named by its old
 * and new numbers, as a diff position names it: a removed line has no new one, an added line no old one.
 */
export interface LineHooks {
  link(file: number, old: number | undefined, neu: number | undefined): string | undefined
  below(file: number, f: DiffFile, old: number | undefined, neu: number | undefined): Html | null
}

const lineNumber = (v: number | undefined, href: string | undefined) =>
  v === undefined ? '' : href ? html`<a href="${href}" class="line-comment">${v}</a>` : v

function unified(lines: Line[], file: number, f: DiffFile, hooks?: LineHooks): Html {
  return html`${lines.map((l) => {
    if (l.kind === 'hunk' || l.kind === 'note') return html`<tr class="diff-${l.kind}"><td colspan="3">${l.text}</td></tr>`
    const href = hooks?.link(file, l.old, l.new)
    const under = hooks?.below(file, f, l.old, l.new)
    return html`<tr class="diff-${l.kind}"><td class="ln">${lineNumber(l.old, href)}</td><td class="ln">${lineNumber(l.new, href)}</td><td><pre>${SIGN[l.kind]}${l.text}</pre></td></tr>
${under ? html`<tr class="diff-discussion"><td colspan="3">${under}</td></tr>` : ''}`
  })}`
}

/** A half row of the split view: a removed line speaks for its old number, an added one for its new, context for both. */
const coordinates = (l: Line | undefined): [number | undefined, number | undefined] =>
  !l ? [undefined, undefined] : l.kind === 'del' ? [l.old, undefined] : l.kind === 'add' ? [undefined, l.new] : [l.old, l.new]

function half(l: Line | undefined, n: number | undefined, href?: string) {
  return l ? html`<td class="ln">${lineNumber(n, href)}</td><td class="diff-${l.kind}"><pre>${l.text}</pre></td>` : html`<td class="ln"></td><td class="diff-empty"></td>`
}

function parallel(lines: Line[], file: number, f: DiffFile, hooks?: LineHooks): Html {
  const rows: Html[] = []
  const side = (l: Line | undefined, n: number | undefined) => half(l, n, l && hooks?.link(file, ...coordinates(l)))
  const under = (l: Line | undefined) => (l && hooks?.below(file, f, ...coordinates(l))) || null
  for (let i = 0; i < lines.length;) {
    const l = lines[i]
    if (l.kind === 'hunk' || l.kind === 'note') {
      rows.push(html`<tr class="diff-${l.kind}"><td colspan="4">${l.text}</td></tr>`)
      i++
    } else if (l.kind === 'ctx') {
      rows.push(html`<tr>${side(l, l.old)}${side(l, l.new)}</tr>`)
      const u = under(l)
      if (u) rows.push(html`<tr class="diff-discussion"><td colspan="4">${u}</td></tr>`)
      i++
    } else {
      const dels: Line[] = []
      const adds: Line[] = []
      while (i < lines.length && lines[i].kind === 'del') dels.push(lines[i++])
      while (i < lines.length && lines[i].kind === 'add') adds.push(lines[i++])
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
        rows.push(html`<tr>${side(dels[k], dels[k]?.old)}${side(adds[k], adds[k]?.new)}</tr>`)
        const [left, right] = [under(dels[k]), under(adds[k])]
        if (left || right) rows.push(html`<tr class="diff-discussion"><td colspan="2">${left ?? ''}</td><td colspan="2">${right ?? ''}</td></tr>`)
      }
    }
  }
  return html`${rows}`
}

export function diffFiles(files: readonly DiffFile[], view: 'inline' | 'parallel', hooks?: LineHooks): Html {
  return html`${files.map((f, i) => {
    const name = f.renamedFile ? `${f.oldPath} → ${f.newPath}` : f.newPath
    const what = f.newFile ? 'added' : f.deletedFile ? 'deleted' : f.renamedFile ? 'renamed' : 'modified'
    const lines = parse(f.diff)
    return html`<section class="diff-file" id="diff-${i}"><div class="bar"><strong class="diff-name">${name}</strong>
<span class="muted">${what} · +${f.additions} −${f.deletions}</span></div>
<div class="blob"><table class="diff diff-${view}"><tbody>${view === 'parallel' ? parallel(lines, i, f, hooks) : unified(lines, i, f, hooks)}</tbody></table></div></section>`
  })}`
}

/** The unified / split switch above a diff at `url`. */
export const diffViewToggle = (url: string, view: 'inline' | 'parallel') =>
  html`<div class="bar" id="diff-view">${view === 'inline' ? html`<strong>Unified</strong>` : html`<a href="${url}">Unified</a>`}
${view === 'parallel' ? html`<strong>Split</strong>` : html`<a href="${url}${query({ view: 'parallel' })}">Split</a>`}</div>`
