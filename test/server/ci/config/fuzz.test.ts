// Property: whatever a .gitlab-ci.yml holds, the config layer answers a plan, a skip or errors; it never throws.
import fc from 'fast-check'
import { stringify } from 'yaml'
import { describe, expect, it } from 'vitest'
import { lintConfig, planPipeline } from '../../../../src/server/ci/plan.js'
import { planContext } from './context.js'

const KEYWORDS = [
  'script', 'stage', 'stages', 'when', 'rules', 'if', 'needs', 'job', 'optional', 'extends', 'variables', 'parallel', 'matrix',
  'only', 'except', 'refs', 'changes', 'exists', 'artifacts', 'paths', 'expire_in', 'retry', 'max', 'timeout', 'default',
  'include', 'local', 'workflow', 'allow_failure', 'exit_codes', 'start_in', 'dependencies', 'coverage', 'inherit', '.hidden',
  'build', 'test', 'deploy', '.pre', 'trigger', '__proto__', 'constructor',
]
const SCALARS = fc.oneof(
  fc.constantFrom(...KEYWORDS), fc.constantFrom('$CI_COMMIT_BRANCH == "main"', '$A =~ /x/', '($A', 'manual', 'delayed', 'never', '1 day', '/re/'),
  fc.string({ maxLength: 8 }), fc.integer({ min: -3, max: 300 }), fc.boolean(), fc.constant(null),
)
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, SCALARS, tie('list'), tie('map')),
  list: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.dictionary(fc.constantFrom(...KEYWORDS), tie('node'), { maxKeys: 5 }),
})).map
const config = fc.dictionary(fc.constantFrom(...KEYWORDS, 'a', 'b', 'c'), value, { maxKeys: 6 })

// Jobs that mostly validate, so that rules, needs, parallel and planning are reached, not only the first error.
const JOB_FIELDS = {
  stage: fc.constantFrom('build', 'test', 'deploy', '.pre', '.post'),
  when: fc.constantFrom('on_success', 'manual', 'always', 'on_failure'),
  needs: fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.record({ job: fc.constantFrom('a', 'b', 'c'), optional: fc.boolean() })), { maxLength: 2 }),
  rules: fc.array(fc.record({
    if: fc.constantFrom('$X', '$X == "1"', '$CI_COMMIT_BRANCH =~ /^ma/', '$Y || $X && $Z'),
    when: fc.constantFrom('on_success', 'never', 'manual', 'always'),
  }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 }),
  parallel: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant({ matrix: [{ P: ['x', 'y'] }] })),
  extends: fc.constantFrom('.base', '.other'),
  variables: fc.dictionary(fc.constantFrom('X', 'Y', 'Z'), fc.constantFrom('1', '', 'main')),
  only: fc.constantFrom(['main'], ['tags'], ['branches']),
  allow_failure: fc.boolean(),
  dependencies: fc.array(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
}
const job = fc.record({ script: fc.constant(['echo']), ...JOB_FIELDS }, { requiredKeys: ['script'] })
const mostlyValid = fc.record({
  '.base': fc.constant({ variables: { X: '1' } }), '.other': fc.constant({ stage: 'build' }),
  a: job, b: job, c: job,
}, { requiredKeys: ['a'] })

describe('the config layer on arbitrary input', () => {
  it('plans mostly valid files without throwing, every need and dependency naming a planned job', async () => {
    const kinds = new Set<string>()
    await fc.assert(fc.asyncProperty(mostlyValid, fc.boolean(), async (cfg, x) => {
      const plan = await planPipeline(stringify(cfg), planContext({ variables: x ? { X: '1', CI_COMMIT_BRANCH: 'main' } : {} }))
      kinds.add(plan.kind)
      if (plan.kind !== 'plan') return
      const names = new Set(plan.plan.jobs.map((j) => j.name))
      for (const j of plan.plan.jobs) {
        for (const n of j.needs ?? []) expect(names.has(n.job)).toBe(true)
        for (const d of j.dependencies ?? []) expect(names.has(d)).toBe(true)
        expect(plan.plan.stages[j.stageIdx]).toBe(j.stage)
      }
    }), { numRuns: 400, seed: 13 })
    expect([...kinds].sort()).toEqual(['errors', 'plan'])
  }, 60_000)

  it('never throws, and answers errors or a plan', async () => {
    await fc.assert(fc.asyncProperty(config, async (cfg) => {
      const text = stringify(cfg)
      const ctx = planContext({ files: { 'a.yml': text, 'b.yml': 'b:\n  script: x\n' }, changedPaths: ['a.yml'] })
      const lint = await lintConfig(text, ctx)
      expect(lint.valid).toBe(lint.errors.length === 0)
      const plan = await planPipeline(text, ctx)
      expect(['plan', 'errors', 'skipped']).toContain(plan.kind)
      if (plan.kind === 'errors') expect(plan.errors.length).toBeGreaterThan(0)
    }), { numRuns: 400, seed: 11 })
  }, 60_000)

  it('never throws on arbitrary text', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
      const result = await lintConfig(text)
      expect(typeof result.valid).toBe('boolean')
    }), { numRuns: 300, seed: 12 })
  })
})
