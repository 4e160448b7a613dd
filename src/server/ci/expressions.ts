// `rules:if`, `workflow:rules:if` and `only:variables` expressions, as GitLab's Ci::Pipeline::Expression reads them.
// Parsing never throws: a bad expression is a config error found when the file is validated.
import { flaggedPattern, slashedPattern, type UserPattern } from '../../core/re2.js'
import { chargeWork } from './config/bounded.js'

export type Expr =
  | { t: 'var'; name: string }
  | { t: 'str'; value: string }
  | { t: 'null' }
  | { t: 'pattern'; source: string; flags: string }
  | { t: 'cmp'; op: '==' | '!=' | '=~' | '!~'; left: Expr; right: Expr }
  | { t: 'and' | 'or'; left: Expr; right: Expr }

type Token =
  | { k: 'value'; expr: Expr }
  | { k: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' | '(' | ')' }

const OPERATORS = ['==', '!=', '=~', '!~', '&&', '||', '(', ')'] as const
// GitLab's Variable lexeme: `$` and word characters only (`${VAR}` is no lexeme there, so a syntax error).
const VARIABLE = /\$(\w+)/y
const STRING = /"([^"]*)"|'([^']*)'/y
// GitLab's pattern lexeme: slashes around a body where `\/` is an escaped slash, then RE2's flags.
const PATTERN = /\/((?:\\.|[^\\/])+)\/([ismU]*)/y
const NULL = /null\b/y

function lex(text: string): Token[] | null {
  const tokens: Token[] = []
  let pos = 0
  const at = (re: RegExp) => { re.lastIndex = pos; const m = re.exec(text); if (m) pos = re.lastIndex; return m }
  while (pos < text.length) {
    if (/\s/.test(text[pos])) { pos++; continue }
    const op = OPERATORS.find((o) => text.startsWith(o, pos))
    if (op) { tokens.push({ k: 'op', op }); pos += op.length; continue }
    let m: RegExpExecArray | null
    if ((m = at(VARIABLE))) tokens.push({ k: 'value', expr: { t: 'var', name: m[1] } })
    else if ((m = at(STRING))) tokens.push({ k: 'value', expr: { t: 'str', value: m[1] ?? m[2] } })
    else if ((m = at(PATTERN))) {
      if (!flaggedPattern(m[1], m[2])) return null
      tokens.push({ k: 'value', expr: { t: 'pattern', source: m[1], flags: m[2] } })
    } else if (at(NULL)) tokens.push({ k: 'value', expr: { t: 'null' } })
    else return null
  }
  return tokens
}

/** The parsed expression, or null when its syntax is invalid (or its parentheses nest past the stack). */
export function parseExpression(text: string): Expr | null {
  try {
    return parseTokens(text)
  } catch (e) {
    if (e instanceof RangeError) return null
    throw e
  }
}

function parseTokens(text: string): Expr | null {
  if (typeof text !== 'string') return null
  const tokens = lex(text)
  if (!tokens || tokens.length === 0) return null
  let i = 0
  const isOp = (op: string) => tokens[i]?.k === 'op' && (tokens[i] as { op: string }).op === op
  const primary = (): Expr | null => {
    if (isOp('(')) {
      i++
      const inner = or()
      if (!inner || !isOp(')')) return null
      i++
      return inner
    }
    const tok = tokens[i]
    if (tok?.k !== 'value') return null
    i++
    return tok.expr
  }
  const comparison = (): Expr | null => {
    const left = primary()
    if (!left) return null
    const tok = tokens[i]
    if (tok?.k !== 'op' || !['==', '!=', '=~', '!~'].includes(tok.op)) return left
    i++
    const right = primary()
    if (!right || right.t === 'cmp' || right.t === 'and' || right.t === 'or') return null
    if ((tok.op === '=~' || tok.op === '!~') && right.t !== 'pattern' && right.t !== 'var') return null
    return { t: 'cmp', op: tok.op as '==' | '!=' | '=~' | '!~', left, right }
  }
  const chain = (op: '&&' | '||', next: () => Expr | null, t: 'and' | 'or') => (): Expr | null => {
    let left = next()
    while (left && isOp(op)) {
      i++
      const right = next()
      left = right ? { t, left, right } : null
    }
    return left
  }
  const and = chain('&&', comparison, 'and')
  const or: () => Expr | null = chain('||', and, 'or')
  const expr = or()
  return expr && i === tokens.length ? expr : null
}

/** Whether `pattern` matches `text` (RE2, as GitLab), charged to the pipeline's budget; a match too costly to run is none. */
export function matchCharged(pattern: UserPattern, text: string): boolean {
  chargeWork(pattern.size * Math.max(text.length, 1))
  return pattern.test(text) ?? false
}

/** A variable's value may itself be a `/re/flags` text on the right of `=~`. */
const patternOf = (value: string | null): UserPattern | null => (value === null ? null : slashedPattern(value))

function valueOf(expr: Expr, vars: Record<string, string>): string | null {
  switch (expr.t) {
    case 'var': return Object.hasOwn(vars, expr.name) ? vars[expr.name] : null
    case 'str': return expr.value
    case 'null': return null
    case 'pattern': return `/${expr.source}/${expr.flags}`
    default: return evaluate(expr, vars) ? 'true' : null
  }
}

function matches(expr: Expr & { t: 'cmp' }, vars: Record<string, string>): boolean | null {
  const re = expr.right.t === 'pattern' ? flaggedPattern(expr.right.source, expr.right.flags) : patternOf(valueOf(expr.right, vars))
  if (!re) return null
  return matchCharged(re, valueOf(expr.left, vars) ?? '')
}

/** A bare value is true when it is set and not empty; comparisons as GitLab's lexemes evaluate them. */
export function evaluate(expr: Expr, vars: Record<string, string>): boolean {
  switch (expr.t) {
    case 'and': return evaluate(expr.left, vars) && evaluate(expr.right, vars)
    case 'or': return evaluate(expr.left, vars) || evaluate(expr.right, vars)
    case 'cmp': {
      if (expr.op === '==') return valueOf(expr.left, vars) === valueOf(expr.right, vars)
      if (expr.op === '!=') return valueOf(expr.left, vars) !== valueOf(expr.right, vars)
      const found = matches(expr, vars)
      if (found === null) return expr.op === '!~'
      return expr.op === '=~' ? found : !found
    }
    default: {
      const value = valueOf(expr, vars)
      return value !== null && value !== ''
    }
  }
}

/** Parses and evaluates in one go; an invalid expression is false. */
export function evaluateExpression(text: string, vars: Record<string, string>): boolean {
  const expr = parseExpression(text)
  return expr ? evaluate(expr, vars) : false
}
