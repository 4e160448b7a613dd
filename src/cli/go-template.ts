// `--template`: the part of Go's text/template that gh's --template documents, over the API's JSON. No maintained npm
// package has pipelines, printf and gh's tablerow (@ctrl/golang-template has neither), so the subset lives here:
// {{.field.path}}, {{.}}, {{$}}, {{$var := …}}, pipelines with |, (…), if / else if / else, range (with $i, $v :=
// and else), with, {{- -}} trimming, comments, and the functions listed in FUNCTIONS.
import { timeSpan } from '../core/relative-time.js'
import { usageError } from './errors.js'

type Value = unknown

interface Text { kind: 'text'; text: string }
interface Action { kind: 'action'; pipe: Pipe }
interface Block { kind: 'if' | 'range' | 'with'; pipe: Pipe; body: Node[]; otherwise: Node[] }
type Node = Text | Action | Block

interface Pipe { declare: string[]; commands: Term[][] }
type Term =
  | { kind: 'literal'; value: Value }
  | { kind: 'field'; root: 'dot' | string; path: string[] }
  | { kind: 'call'; name: string }
  | { kind: 'group'; pipe: Pipe; path: string[] }

const fail = (message: string) => usageError(`template: ${message}`)

/** Text and actions, with the whitespace a `{{-` or `-}}` trims already removed. */
function lex(source: string): ({ text: string } | { action: string })[] {
  const parts: ({ text: string } | { action: string })[] = []
  let at = 0
  while (at < source.length) {
    const open = source.indexOf('{{', at)
    if (open < 0) {
      parts.push({ text: source.slice(at) })
      break
    }
    let text = source.slice(at, open)
    const close = source.indexOf('}}', open + 2)
    if (close < 0) throw fail('unclosed action: {{ without }}')
    let inner = source.slice(open + 2, close)
    if (/^-\s/.test(inner)) {
      text = text.replace(/\s+$/, '')
      inner = inner.slice(1)
    }
    let next = close + 2
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1)
      next += /^\s*/.exec(source.slice(next))![0].length
    }
    if (text) parts.push({ text })
    if (!/^\s*\/\*[\s\S]*\*\/\s*$/.test(inner)) parts.push({ action: inner.trim() })
    at = next
  }
  return parts
}

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?\d+(?:\.\d+)?)|(\$\w*(?:\.\w+)*)|((?:\.\w+)+|\.)|(:=|\||\(|\)|,)|([A-Za-z_]\w*))/y

function tokens(action: string): string[] {
  const out: string[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < action.length) {
    const start = TOKEN.lastIndex
    const m = TOKEN.exec(action)
    if (!m) {
      if (/^\s*$/.test(action.slice(start))) break
      throw fail(`unexpected "${action.slice(start).trim()}" in {{${action}}}`)
    }
    out.push(m[0].trim())
    // `(.a).b`: a field path right after a closing parenthesis belongs to the group.
    if (m[6] === ')' && action[TOKEN.lastIndex] === '.') {
      const path = /^(?:\.\w+)+/.exec(action.slice(TOKEN.lastIndex))
      if (path) {
        out.push(`)${path[0]}`)
        out.splice(out.length - 2, 1)
        TOKEN.lastIndex += path[0].length
      }
    }
  }
  return out
}

function parsePipe(words: string[], action: string): Pipe {
  let at = 0
  const declare: string[] = []
  const assign = words.indexOf(':=')
  if (assign > 0 && words.slice(0, assign).every((w) => /^\$\w+$/.test(w) || w === ',')) {
    declare.push(...words.slice(0, assign).filter((w) => w !== ','))
    at = assign + 1
  }
  const commands: Term[][] = [[]]
  while (at < words.length) {
    const word = words[at++]
    if (word === '|') {
      commands.push([])
      continue
    }
    if (word === '(') {
      let depth = 1
      const start = at
      while (at < words.length && depth > 0) {
        if (words[at] === '(') depth++
        else if (words[at] === ')' || words[at].startsWith(').')) depth--
        at++
      }
      if (depth > 0) throw fail(`unclosed ( in {{${action}}}`)
      const end = words[at - 1]
      commands.at(-1)!.push({ kind: 'group', pipe: parsePipe(words.slice(start, at - 1), action), path: end.slice(1).split('.').filter(Boolean) })
      continue
    }
    commands.at(-1)!.push(term(word, action))
  }
  if (commands.some((c) => c.length === 0)) throw fail(`missing command in {{${action}}}`)
  return { declare, commands }
}

function term(word: string, action: string): Term {
  if (word.startsWith('"')) return { kind: 'literal', value: JSON.parse(word) }
  if (word.startsWith('`')) return { kind: 'literal', value: word.slice(1, -1) }
  if (/^-?\d/.test(word)) return { kind: 'literal', value: Number(word) }
  if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' }
  if (word === 'nil') return { kind: 'literal', value: null }
  if (word.startsWith('.')) return { kind: 'field', root: 'dot', path: word.split('.').filter(Boolean) }
  if (word.startsWith('$')) {
    const [name, ...path] = word.split('.')
    return { kind: 'field', root: name, path }
  }
  if (/^[A-Za-z_]\w*$/.test(word)) return { kind: 'call', name: word }
  throw fail(`unexpected "${word}" in {{${action}}}`)
}

/** The tree of a template: blocks hold their bodies; `else if` is an if inside the else branch. */
export function parseTemplate(source: string): Node[] {
  const root: Node[] = []
  const stack: { block: Block; inElse: boolean; chained: number }[] = []
  const target = () => {
    const top = stack.at(-1)
    return top ? (top.inElse ? top.block.otherwise : top.block.body) : root
  }
  for (const part of lex(source)) {
    if ('text' in part) {
      target().push({ kind: 'text', text: part.text })
      continue
    }
    const words = tokens(part.action)
    const [keyword] = words
    if (keyword === 'if' || keyword === 'range' || keyword === 'with') {
      const block: Block = { kind: keyword, pipe: parsePipe(words.slice(1), part.action), body: [], otherwise: [] }
      target().push(block)
      stack.push({ block, inElse: false, chained: 0 })
    } else if (keyword === 'else') {
      const top = stack.at(-1)
      if (!top || top.inElse) throw fail('unexpected {{else}}')
      top.inElse = true
      if (words[1] === 'if' || words[1] === 'with') {
        const block: Block = { kind: words[1], pipe: parsePipe(words.slice(2), part.action), body: [], otherwise: [] }
        top.block.otherwise.push(block)
        stack.push({ block, inElse: false, chained: top.chained + 1 })
      }
    } else if (keyword === 'end') {
      let top = stack.pop()
      if (!top) throw fail('unexpected {{end}}')
      for (let n = top.chained; n > 0; n--) top = stack.pop()!
    } else if (keyword === undefined) {
      throw fail('empty action {{}}')
    } else {
      target().push({ kind: 'action', pipe: parsePipe(words, part.action) })
    }
  }
  if (stack.length > 0) throw fail(`missing {{end}} of {{${stack.at(-1)!.block.kind}}}`)
  return root
}

export interface TemplateContext {
  /** The wall clock for timeago; without it times print unchanged. */
  now?: () => number
  /** Whether tablerow aligns columns (a terminal) or separates them with tabs. */
  aligned: boolean
}

interface Scope { dot: Value; vars: Map<string, Value> }

const truthy = (v: Value) =>
  !(v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0) ||
    (typeof v === 'object' && Object.keys(v as object).length === 0))

function field(value: Value, path: string[]): Value {
  let v = value
  for (const key of path) {
    if (v === null || v === undefined) return undefined
    if (typeof v !== 'object') throw fail(`can't read .${key} of ${JSON.stringify(v)}`)
    v = (v as Record<string, Value>)[key]
  }
  return v
}

/** What Go's fmt prints for a value with %v: JSON for objects, nothing for null. */
export function show(v: Value): string {
  if (v === undefined || v === null) return ''
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

/** Go's printf verbs: %s %v %d %f %t %q %x %%, with flags (-, 0, +), width and precision. */
export function printf(format: string, ...args: Value[]): string {
  let i = 0
  return format.replace(/%([-+ 0#]*)(\d+)?(?:\.(\d+))?([svdftqxX%])/g, (_, flags: string, width?: string, precision?: string, verb?: string) => {
    if (verb === '%') return '%'
    const arg = args[i++]
    let text: string
    if (verb === 'd') text = String(Math.trunc(Number(arg)))
    else if (verb === 'f') text = Number(arg).toFixed(precision === undefined ? 6 : Number(precision))
    else if (verb === 'q') text = JSON.stringify(show(arg))
    else if (verb === 'x' || verb === 'X') text = typeof arg === 'number' ? arg.toString(16) : Buffer.from(show(arg)).toString('hex')
    else text = show(arg)
    if (verb === 'X') text = text.toUpperCase()
    if (verb === 's' && precision !== undefined) text = text.slice(0, Number(precision))
    if (flags.includes('+') && (verb === 'd' || verb === 'f') && Number(arg) >= 0) text = `+${text}`
    const w = Number(width ?? 0)
    if (text.length >= w) return text
    if (flags.includes('-')) return text.padEnd(w)
    return flags.includes('0') && verb !== 's' ? text.padStart(w, '0') : text.padStart(w)
  })
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return show(a) < show(b) ? -1 : show(a) > show(b) ? 1 : 0
}

function timeago(value: Value, now?: () => number): string {
  const at = Date.parse(show(value))
  if (!now || Number.isNaN(at)) return show(value)
  // gh's template words: "about" before a past span, and no "just now".
  const { words, past } = timeSpan(at, now())
  if (!words) return 'less than a minute ago'
  return past ? `about ${words} ago` : `in ${words}`
}

/** Go's reference-time layout (`2006-01-02 15:04`) for the common parts, in UTC. */
function timefmt(layout: Value, value: Value): string {
  const d = new Date(show(value))
  if (Number.isNaN(d.getTime())) return show(value)
  const two = (n: number) => String(n).padStart(2, '0')
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
  const parts: Record<string, string> = {
    2006: String(d.getUTCFullYear()), Jan: months[d.getUTCMonth()], Mon: days[d.getUTCDay()], MST: 'UTC',
    '01': two(d.getUTCMonth() + 1), '02': two(d.getUTCDate()), 15: two(d.getUTCHours()), '04': two(d.getUTCMinutes()), '05': two(d.getUTCSeconds()),
  }
  return show(layout).replace(/2006|Jan|Mon|MST|01|02|15|04|05/g, (token) => parts[token])
}

type Fn = (ctx: Renderer, ...args: Value[]) => Value

/** Go's built-ins and gh's additions. color, autocolor and hyperlink print their text: collab colours no template output. */
const FUNCTIONS: Record<string, Fn> = {
  and: (_, ...args) => args.find((a) => !truthy(a)) ?? args.at(-1),
  or: (_, ...args) => args.find(truthy) ?? args.at(-1),
  not: (_, a) => !truthy(a),
  eq: (_, a, ...rest) => rest.some((b) => compare(a, b) === 0),
  ne: (_, a, b) => compare(a, b) !== 0,
  lt: (_, a, b) => compare(a, b) < 0,
  le: (_, a, b) => compare(a, b) <= 0,
  gt: (_, a, b) => compare(a, b) > 0,
  ge: (_, a, b) => compare(a, b) >= 0,
  len: (_, a) => (Array.isArray(a) || typeof a === 'string' ? a.length : a && typeof a === 'object' ? Object.keys(a).length : 0),
  index: (_, a, ...keys) => keys.reduce((v, k) => (v === null || v === undefined ? undefined : (v as Record<string, Value>)[show(k)]), a),
  print: (_, ...args) => args.map(show).join(''),
  println: (_, ...args) => `${args.map(show).join(' ')}\n`,
  printf: (_, format, ...args) => printf(show(format), ...args),
  join: (_, sep, list) => (Array.isArray(list) ? list.map(show).join(show(sep)) : show(list)),
  pluck: (_, name, list) => (Array.isArray(list) ? list.map((item) => field(item, [show(name)])) : []),
  truncate: (_, length, text) => {
    const s = show(text)
    const n = Number(length)
    return s.length <= n ? s : n <= 3 ? s.slice(0, n) : `${s.slice(0, n - 3)}...`
  },
  timeago: (ctx, time) => timeago(time, ctx.context.now),
  timefmt: (_, layout, time) => timefmt(layout, time),
  color: (_, _style, text) => show(text),
  autocolor: (_, _style, text) => show(text),
  hyperlink: (_, _url, text) => show(text),
  upper: (_, text) => show(text).toUpperCase(),
  lower: (_, text) => show(text).toLowerCase(),
  tablerow: (ctx, ...cells) => {
    ctx.rows.push(cells.map(show))
    return undefined
  },
  tablerender: (ctx) => ctx.flushTable(),
}

class Renderer {
  out = ''
  rows: string[][] = []
  constructor(readonly context: TemplateContext) {}

  flushTable(): string {
    const rows = this.rows
    this.rows = []
    if (!this.context.aligned) return rows.map((cells) => `${cells.join('\t')}\n`).join('')
    const widths = rows.reduce<number[]>((w, cells) => cells.map((c, i) => Math.max(w[i] ?? 0, c.length)), [])
    return rows.map((cells) => `${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd()}\n`).join('')
  }

  nodes(nodes: Node[], scope: Scope): void {
    for (const node of nodes) this.node(node, scope)
  }

  node(node: Node, scope: Scope): void {
    if (node.kind === 'text') {
      this.out += node.text
      return
    }
    if (node.kind === 'action') {
      const value = this.pipe(node.pipe, scope)
      if (node.pipe.declare.length === 0 && typeof value !== 'undefined') this.out += show(value)
      return
    }
    const inner: Scope = { dot: scope.dot, vars: new Map(scope.vars) }
    if (node.kind === 'range') return this.range(node, inner)
    const value = this.pipe(node.pipe, inner)
    if (!truthy(value)) return this.nodes(node.otherwise, inner)
    this.nodes(node.body, node.kind === 'with' ? { ...inner, dot: value } : inner)
  }

  range(node: Block, scope: Scope): void {
    const declare = node.pipe.declare
    const value = this.pipe({ ...node.pipe, declare: [] }, scope)
    const entries: [Value, Value][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : value && typeof value === 'object' ? Object.entries(value).sort(([a], [b]) => a.localeCompare(b))
        : typeof value === 'number' ? Array.from({ length: value }, (_, i) => [i, i]) : []
    if (entries.length === 0) return this.nodes(node.otherwise, scope)
    for (const [key, item] of entries) {
      const vars = new Map(scope.vars)
      if (declare.length === 1) vars.set(declare[0], item)
      if (declare.length === 2) {
        vars.set(declare[0], key)
        vars.set(declare[1], item)
      }
      this.nodes(node.body, { dot: item, vars })
    }
  }

  pipe(pipe: Pipe, scope: Scope): Value {
    let value: Value
    pipe.commands.forEach((command, i) => {
      value = this.command(command, scope, i === 0 ? [] : [value])
    })
    for (const name of pipe.declare) scope.vars.set(name, value)
    return value
  }

  command(terms: Term[], scope: Scope, piped: Value[]): Value {
    const [head, ...rest] = terms
    if (head.kind === 'call') {
      const fn = FUNCTIONS[head.name]
      if (!fn) throw fail(`function "${head.name}" not defined`)
      return fn(this, ...rest.map((t) => this.term(t, scope)), ...piped)
    }
    if (rest.length > 0 || piped.length > 0) throw fail("can't give arguments to a value that is not a function")
    return this.term(head, scope)
  }

  term(term: Term, scope: Scope): Value {
    if (term.kind === 'literal') return term.value
    if (term.kind === 'group') return field(this.pipe(term.pipe, { dot: scope.dot, vars: scope.vars }), term.path)
    if (term.kind === 'call') return this.command([term], scope, [])
    if (term.root === 'dot') return field(scope.dot, term.path)
    if (!scope.vars.has(term.root)) throw fail(`undefined variable "${term.root}"`)
    return field(scope.vars.get(term.root), term.path)
  }
}

/** Renders `source` over `data`; rows left by tablerow without a tablerender are drawn at the end, as gh does. */
export function renderTemplate(source: string, data: Value, context: TemplateContext): string {
  const tree = parseTemplate(source)
  const renderer = new Renderer(context)
  renderer.nodes(tree, { dot: data, vars: new Map([['$', data]]) })
  return renderer.out + renderer.flushTable()
}
