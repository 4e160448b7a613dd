// Reading `rules:`, `workflow:rules:` and `only:`/`except:` into their validated forms.
import { isSlashed, slashedPattern } from '../../../core/re2.js'
import { parseExpression, type Expr } from '../expressions.js'
import { parseCiDuration } from '../../../core/durations.js'
import { needsList, Problems, stringList, unknownKeys, variablesHash } from './fields.js'
import type { AllowFailureConfig, RefPolicy, RuleConfig, RuleWhen } from './types.js'
import { isHash } from './yaml.js'

const RULE_KEYS = ['if', 'changes', 'exists', 'when', 'start_in', 'allow_failure', 'variables', 'needs', 'interruptible']
const RULE_WHEN = ['on_success', 'on_failure', 'always', 'never', 'manual', 'delayed']
const WORKFLOW_RULE_KEYS = ['if', 'changes', 'exists', 'when', 'variables', 'auto_cancel']

/** `changes:`/`exists:` take a list of globs, or a hash with `paths:` (compare_to, project and ref are not used). */
function globs(value: unknown, at: string, p: Problems): string[] | null | undefined {
  if (value === undefined || value === null) return null
  if (typeof value === 'string') return [value]
  if (isHash(value)) {
    unknownKeys(value, ['paths', 'compare_to', 'project', 'ref'], at, p)
    return stringList(value.paths, `${at} paths`, p)
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value
  p.add(`${at} config should be an array or a hash`)
  return undefined
}

function ruleIf(value: unknown, at: string, p: Problems): Expr | null | undefined {
  if (value === undefined || value === null) return null
  const expr = typeof value === 'string' ? parseExpression(value) : null
  if (!expr) { p.add(`${at} if invalid expression syntax`); return undefined }
  return expr
}

/** Rule start_in: only with `when: delayed`, then required, at most a week. */
function ruleStartIn(rule: Record<string, unknown>, at: string, p: Problems): number | null {
  if (rule.when !== 'delayed') {
    if (rule.start_in !== undefined) p.add(`${at} config contains disallowed keys: start_in`)
    return null
  }
  if (rule.start_in === undefined || rule.start_in === null) { p.add(`${at} start in can't be blank`); return null }
  const seconds = typeof rule.start_in === 'string' || typeof rule.start_in === 'number' ? parseCiDuration(String(rule.start_in)) : null
  if (seconds === null) p.add(`${at} start in should be a duration`)
  else if (seconds > 7 * 24 * 3600) p.add(`${at} start in should not exceed the limit`)
  return seconds
}

/** A rule's allow_failure is a boolean only (exit_codes belong to the job). */
function ruleAllowFailure(value: unknown, at: string, p: Problems): AllowFailureConfig | null {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return { allowed: value, exitCodes: null }
  p.add(`${at} allow failure should be a boolean value`)
  return null
}

function parseRule(rule: unknown, at: string, workflow: boolean, p: Problems): RuleConfig | undefined {
  if (!isHash(rule)) { p.add(`${at} config should be a hash`); return undefined }
  const before = p.list.length
  unknownKeys(rule, workflow ? WORKFLOW_RULE_KEYS : RULE_KEYS, at, p)
  const allowedWhen = workflow ? ['always', 'never'] : RULE_WHEN
  if (rule.when !== undefined && !allowedWhen.includes(rule.when as string)) p.add(`${at} when unknown value: ${String(rule.when)}`)
  const parsed = {
    if: ruleIf(rule.if, at, p),
    changes: globs(rule.changes, `${at}:changes`, p),
    exists: globs(rule.exists, `${at}:exists`, p),
    when: (rule.when as RuleWhen | undefined) ?? null,
    startIn: ruleStartIn(rule, at, p),
    allowFailure: ruleAllowFailure(rule.allow_failure, at, p),
    variables: rule.variables === undefined ? null : variablesHash(rule.variables, `${at}:variables`, p),
    needs: rule.needs === undefined ? null : needsList(rule.needs, at, p),
    interruptible: typeof rule.interruptible === 'boolean' ? rule.interruptible : null,
  }
  if (rule.interruptible !== undefined && typeof rule.interruptible !== 'boolean') p.add(`${at} interruptible should be a boolean value`)
  if (p.list.length > before) return undefined
  return parsed as RuleConfig
}

/** An array of rule hashes; nested arrays (from `!reference`) are flattened one level as GitLab's Rules entry does. */
export function parseRules(value: unknown, at: string, p: Problems, workflow = false): RuleConfig[] | undefined {
  if (!Array.isArray(value)) { p.add(`${at} config should be a array`); return undefined }
  const flat = value.flatMap((r) => (Array.isArray(r) ? r : [r]))
  if (flat.length === 0) { p.add(`${at} config can't be blank`); return undefined }
  const rules: RuleConfig[] = []
  for (const rule of flat) {
    const parsed = parseRule(rule, `${at}:rule`, workflow, p)
    if (parsed) rules.push(parsed)
  }
  return rules.length === flat.length ? rules : undefined
}

const REGEXP_REF = /^\/.+\/[ismU]*$/s

export function parsePolicy(value: unknown, at: string, p: Problems): RefPolicy | null | undefined {
  if (value === undefined || value === null) return null
  const refsOf = (v: unknown, where: string) => {
    const list = typeof v === 'string' ? [v] : v
    if (Array.isArray(list) && list.every((r) => typeof r === 'string' && (!isSlashed(r) || slashedPattern(r)))) return list as string[]
    p.add(`${where} config should be an array of strings or regular expressions using re2 syntax`)
    return undefined
  }
  if (!isHash(value)) {
    const refs = refsOf(value, at)
    return refs ? { refs, variables: null, changes: null } : undefined
  }
  const before = p.list.length
  unknownKeys(value, ['refs', 'variables', 'changes', 'kubernetes'], at, p)
  const refs = value.refs === undefined ? null : refsOf(value.refs, `${at}:refs`)
  let variables: Expr[] | null = null
  if (value.variables !== undefined) {
    const texts = stringList(value.variables, `${at}:variables config`, p, 'an array of valid expressions')
    variables = (texts ?? []).map((t) => parseExpression(t)).filter((e): e is Expr => e !== null)
    if (texts && variables.length !== texts.length) p.add(`${at}:variables config should be an array of valid expressions`)
  }
  const changes = globs(value.changes, `${at}:changes`, p)
  if (p.list.length > before) return undefined
  return { refs: refs ?? null, variables, changes: changes ?? null }
}

export const isRegexpRef = (ref: string) => REGEXP_REF.test(ref)
