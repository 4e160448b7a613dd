// Deciding with the pipeline's facts: does a rule match (if, changes, exists), do only/except let a job in.
import { slashedPattern } from '../../../core/re2.js'
import { evaluate, matchCharged } from '../expressions.js'
import { fnmatchPattern } from '../../../core/glob.js'
import { charged, chargeWork, MatchBudget } from './bounded.js'
import type { PlanContext } from '../plan-types.js'
import { isRegexpRef } from './rules.js'
import type { RefPolicy, RuleConfig } from './types.js'

export interface Facts {
  ctx: PlanContext
  /** The commit's files, read once per pipeline and only when some `exists:` asks. */
  files(): Promise<string[]>
  /** What this pipeline's matches may lose to backtracking patterns before planning gives up. */
  budget: MatchBudget
}

export function makeFacts(ctx: PlanContext): Facts {
  let files: Promise<string[]> | null = null
  return { ctx, files: () => (files ??= ctx.listFiles()), budget: new MatchBudget() }
}

/** GitLab expands variables in `changes`/`exists` paths before matching them. */
function expandVars(text: string, vars: Record<string, string>): string {
  return text.replace(/\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g, (_, a, b) => vars[a ?? b] ?? '')
}

/**
 * The paths a glob list matches (File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB: `*` stays within a
 * directory, a `**` segment spans directories, dotfiles match, braces alternate), each match charged to the running
 * budget. Patterns RE2 cannot hold match nothing.
 */
export function globFilter(patterns: string[], paths: string[], first = false): string[] {
  const compiled = patterns.filter((p) => p !== '').map(fnmatchPattern).filter((p) => p !== null)
  const isMatch = (path: string) =>
    compiled.some((re) => {
      chargeWork(re.size * Math.max(path.length, 1))
      return re.test(path) === true
    })
  if (!first) return paths.filter(isMatch)
  const hit = paths.find(isMatch)
  return hit === undefined ? [] : [hit]
}

function anyMatch(patterns: string[], paths: string[], vars: Record<string, string>): boolean {
  const found = globFilter(patterns.map((p) => expandVars(p, vars).replace(/^\.?\//, '')), paths, true)
  return found.length > 0
}

/** Unknown changed paths (a web or schedule pipeline) make `changes` true, as GitLab does. */
export function changesMatch(patterns: string[], facts: Facts, vars: Record<string, string>): boolean {
  const changed = facts.ctx.changedPaths
  return changed === null || anyMatch(patterns, changed, vars)
}

export async function ruleMatches(rule: RuleConfig, facts: Facts, vars: Record<string, string>): Promise<boolean> {
  const holds = charged(facts.budget, () => (!rule.if || evaluate(rule.if, vars)) && (!rule.changes || changesMatch(rule.changes, facts, vars)))
  if (!holds || !rule.exists) return holds
  const files = await facts.files()
  return charged(facts.budget, () => anyMatch(rule.exists!, files, vars))
}

/** The first matching rule, or null when none matches. */
export async function firstMatch<R extends RuleConfig>(rules: R[], facts: Facts, vars: Record<string, string>): Promise<R | null> {
  for (const rule of rules) if (await ruleMatches(rule, facts, vars)) return rule
  return null
}

const REF_KEYWORDS: Record<string, (ctx: PlanContext) => boolean> = {
  branches: (c) => !c.tag && c.source !== 'merge_request_event',
  tags: (c) => c.tag,
  merge_requests: (c) => c.source === 'merge_request_event',
  api: (c) => c.source === 'api',
  web: (c) => c.source === 'web',
  pushes: (c) => c.source === 'push',
  schedules: (c) => c.source === 'schedule',
  triggers: (c) => c.source === 'trigger',
  external: (c) => c.source === 'external',
  pipelines: (c) => c.source === 'pipeline' || c.source === 'parent_pipeline',
  chat: (c) => c.source === 'chat',
  external_pull_requests: () => false,
}

function refMatches(pattern: string, ctx: PlanContext): boolean {
  // `ref@group/project` limits a pattern to one project; every pipeline here is of the file's own project.
  const at = /^(.*)@[\w.-]+(?:\/[\w.-]+)+$/s.exec(pattern)
  const ref = at ? at[1] : pattern
  if (Object.hasOwn(REF_KEYWORDS, ref)) return REF_KEYWORDS[ref](ctx)
  // A pattern RE2 refuses is compared as a name, as GitLab's Build::Policy::Refs does (validation refuses one first).
  const re = isRegexpRef(ref) ? slashedPattern(ref) : null
  return re ? matchCharged(re, ctx.ref) : ref === ctx.ref
}

/** Which parts of a policy hold; only needs all of them, except any of them (GitLab's Build::Policy). */
function policyParts(policy: RefPolicy, facts: Facts, vars: Record<string, string>): boolean[] {
  const parts: boolean[] = []
  if (policy.refs) parts.push(policy.refs.some((r) => refMatches(r, facts.ctx)))
  if (policy.variables) parts.push(policy.variables.some((e) => evaluate(e, vars)))
  if (policy.changes) parts.push(changesMatch(policy.changes, facts, vars))
  return parts
}

const DEFAULT_ONLY: RefPolicy = { refs: ['branches', 'tags'], variables: null, changes: null }

export function onlyExceptAllow(only: RefPolicy | null, except: RefPolicy | null, facts: Facts, vars: Record<string, string>): boolean {
  return charged(facts.budget, () => {
    if (!policyParts(only ?? DEFAULT_ONLY, facts, vars).every(Boolean)) return false
    return !(except && policyParts(except, facts, vars).some(Boolean))
  })
}
