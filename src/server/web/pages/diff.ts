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

function unified(lines: Line[]): Html {
  return html`${lines.map((l) => l.kind === 'hunk' || l.kind === 'note'
    ? html`<tr class="diff-${l.kind}"><td colspan="3">${l.text}</td></tr>`
    : html`<tr class="diff-${l.kind}"><td class="ln">${num(l.old)}</td><td class="ln">${num(l.new)}</td><td><pre>${SIGN[l.kind]}${l.text}</pre></td></tr>`)}`
}

const half = (l: Line | undefined, n?: number) =>
  l ? html`<td class="ln">${num(n)}</td><td class="diff-${l.kind}"><pre>${l.text}</pre></td>` : html`<td class="ln"></td><td class="diff-empty"></td>`

function parallel(lines: Line[]): Html {
  const rows: Html[] = []
  for (let i = 0; i < lines.length;) {
    const l = lines[i]
    if (l.kind === 'hunk' || l.kind === 'note') {
      rows.push(html`<tr class="diff-${l.kind}"><td colspan="4">${l.text}</td></tr>`)
      i++
    } else if (l.kind === 'ctx') {
      rows.push(html`<tr>${half(l, l.old)}${half(l, l.new)}</tr>`)
      i++
    } else {
      const dels: Line[] = []
      const adds: Line[] = []
      while (i < lines.length && lines[i].kind === 'del') dels.push(lines[i++])
      while (i < lines.length && lines[i].kind === 'add') adds.push(lines[i++])
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) rows.push(html`<tr>${half(dels[k], dels[k]?.old)}${half(adds[k], adds[k]?.new)}</tr>`)
    }
  }
  return html`${rows}`
}

export function diffFiles(files: readonly DiffFile[], view: 'inline' | 'parallel'): Html {
  return html`${files.map((f, i) => {
    const name = f.renamedFile ? `${f.oldPath} → ${f.newPath}` : f.newPath
    const what = f.newFile ? 'added' : f.deletedFile ? 'deleted' : f.renamedFile ? 'renamed' : 'modified'
    const lines = parse(f.diff)
    return html`<section class="diff-file" id="diff-${i}"><div class="bar"><strong class="diff-name">${name}</strong>
<span class="muted">${what} · +${f.additions} −${f.deletions}</span></div>
<div class="blob"><table class="diff diff-${view}"><tbody>${view === 'parallel' ? parallel(lines) : unified(lines)}</tbody></table></div></section>`
  })}`
}

/** The unified / split switch above a diff at `url`. */
export const diffViewToggle = (url: string, view: 'inline' | 'parallel') =>
  html`<div class="bar" id="diff-view">${view === 'inline' ? html`<strong>Unified</strong>` : html`<a href="${url}">Unified</a>`}
${view === 'parallel' ? html`<strong>Split</strong>` : html`<a href="${url}${query({ view: 'parallel' })}">Split</a>`}</div>`
