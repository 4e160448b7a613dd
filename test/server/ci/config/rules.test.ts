// Which jobs a pipeline gets: rules, only/except and workflow:rules against the pipeline's source, ref and files.
import { describe, expect, it } from 'vitest'
import { TOO_SLOW } from '../../../../src/server/ci/config/bounded.js'
import { FILTERED_BY_WORKFLOW, NO_JOBS, planPipeline } from '../../../../src/server/ci/plan.js'
import type { PlanContext } from '../../../../src/server/ci/plan-types.js'
import { jobSpec, planContext } from './context.js'

async function jobsOf(yaml: string, ctx: PlanContext = planContext()) {
  const result = await planPipeline(yaml, ctx)
  if (result.kind !== 'plan') throw new Error(`expected a plan, got ${JSON.stringify(result)}`)
  return result.plan.jobs
}
const names = async (yaml: string, ctx?: PlanContext) => (await jobsOf(yaml, ctx)).map((j) => j.name)

const push = planContext({ variables: { CI_COMMIT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', CI_DEFAULT_BRANCH: 'main' } })
const feature = planContext({ ref: 'feature/x', variables: { CI_COMMIT_BRANCH: 'feature/x', CI_PIPELINE_SOURCE: 'push', CI_DEFAULT_BRANCH: 'main' } })
const tag = planContext({ ref: 'v1.0', tag: true, variables: { CI_COMMIT_TAG: 'v1.0', CI_PIPELINE_SOURCE: 'push' } })
const mr = planContext({ ref: 'refs/merge-requests/1/head', source: 'merge_request_event', variables: { CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '1', CI_DEFAULT_BRANCH: 'main' } })
const web = planContext({ source: 'web', variables: { CI_COMMIT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'web' } })

describe('rules', () => {
  const yaml = `
job:
  script: x
  rules:
    - if: $CI_COMMIT_TAG
      when: never
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      when: manual
      allow_failure: true
      variables: {DEPLOY: prod}
    - if: $CI_COMMIT_BRANCH =~ /^feature\\//
      when: delayed
      start_in: 10 minutes
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
`

  it('takes the first matching rule', async () => {
    expect(await jobsOf(yaml, push)).toEqual([jobSpec({
      name: 'job', stage: 'test', stageIdx: 0, script: ['x'], when: 'manual', allowFailure: true, variables: { DEPLOY: 'prod' },
    })])
    expect((await jobsOf(yaml, feature))[0]).toMatchObject({ when: 'delayed', startIn: 600, allowFailure: false, variables: {} })
    expect((await jobsOf(yaml, mr))[0]).toMatchObject({ when: 'on_success', allowFailure: false })
  })

  it('leaves the job out on when: never or when no rule matches', async () => {
    expect(await planPipeline(yaml, tag)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
    expect(await planPipeline(yaml, planContext({ ref: 'other', variables: { CI_COMMIT_BRANCH: 'other' } }))).toEqual({ kind: 'errors', errors: [NO_JOBS] })
  })

  it('keeps manual jobs from rules blocking unless allow_failure says otherwise', async () => {
    const [job] = await jobsOf('job:\n  script: x\n  rules:\n    - when: manual\n')
    expect([job.when, job.allowFailure]).toEqual(['manual', false])
  })

  it('uses the job when and allow_failure as defaults for a rule without them', async () => {
    const [job] = await jobsOf('job:\n  script: x\n  when: always\n  allow_failure: {exit_codes: 4}\n  rules:\n    - if: $CI_COMMIT_BRANCH\n', push)
    expect([job.when, job.allowFailure, job.allowFailureExitCodes]).toEqual(['always', false, [4]])
  })

  it('lets a rule variable win over job and global variables, and sees job variables in if', async () => {
    const yaml = 'variables: {A: global, B: global}\njob:\n  script: x\n  variables: {B: job, GATE: open}\n  rules:\n    - if: $GATE == "open"\n      variables: {A: rule}\n'
    expect((await jobsOf(yaml))[0].variables).toEqual({ A: 'rule', B: 'job', GATE: 'open' })
  })

  it('lets pipeline variables win over the file in if', async () => {
    const yaml = 'variables: {MODE: file}\njob:\n  script: x\n  rules:\n    - if: $MODE == "pipeline"\n'
    expect(await names(yaml, planContext({ variables: { MODE: 'pipeline' } }))).toEqual(['job'])
  })

  it('lets a rule set interruptible', async () => {
    const [job] = await jobsOf('job:\n  script: x\n  interruptible: false\n  rules:\n    - interruptible: true\n')
    expect(job.interruptible).toBe(true)
  })

  it('accepts any variable name the file uses', async () => {
    const [job] = await jobsOf('job:\n  script: x\n  variables: {MY-VAR: a, lower_case: b}\n')
    expect(job.variables).toEqual({ 'MY-VAR': 'a', lower_case: 'b' })
  })

  it('replaces the job needs with the rule needs', async () => {
    const yaml = 'a:\n  stage: build\n  script: x\nb:\n  stage: build\n  script: x\nc:\n  script: x\n  needs: [a]\n  rules:\n    - if: $FAST\n      needs: [b]\n    - when: on_success\n'
    expect((await jobsOf(yaml, planContext({ variables: { FAST: '1' } })))[2].needs).toEqual([{ job: 'b', artifacts: true, optional: false }])
    expect((await jobsOf(yaml))[2].needs).toEqual([{ job: 'a', artifacts: true, optional: false }])
  })

  describe('changes', () => {
    const yaml = 'docs:\n  script: x\n  rules:\n    - changes: ["docs/**/*.md", "*.txt"]\nsrc:\n  script: x\n  rules:\n    - changes: {paths: ["src/*"]}\n'

    it('matches globs against the changed paths', async () => {
      expect(await names(yaml, planContext({ changedPaths: ['docs/guide/intro.md'] }))).toEqual(['docs'])
      expect(await names(yaml, planContext({ changedPaths: ['notes.txt', 'src/a.ts'] }))).toEqual(['docs', 'src'])
    })

    it('keeps * within one directory', async () => {
      await expect(planPipeline(yaml, planContext({ changedPaths: ['src/deep/a.ts', 'dir/notes.txt'] }))).resolves.toEqual({ kind: 'errors', errors: [NO_JOBS] })
    })

    it('answers a glob that would backtrack for ever on a regular-expression engine, and never throws on an unusable one', async () => {
      const evil = `job:\n  script: x\n  rules:\n    - changes: ["${'**/'.repeat(7)}${'*a'.repeat(8)}*b"]\n    - changes: [""]\n      when: manual\n`
      expect(await planPipeline(evil, planContext({ changedPaths: [`${'a'.repeat(60)}/x`] }))).toEqual({ kind: 'errors', errors: [NO_JOBS] })
      expect(await names(evil, planContext({ changedPaths: [`${'a/'.repeat(7)}${'a'.repeat(60)}b`] }))).toEqual(['job'])
    })

    it('answers a whole file of patterns that would backtrack for ever, each correctly', async () => {
      const jobs = Array.from({ length: 30 }, (_, i) => `j${i}:\n  script: x\n  rules:\n    - if: $MSG =~ /^(a+)+$|b$/\n`).join('')
      expect(await names(jobs, planContext({ variables: { MSG: `${'a'.repeat(40)}b` } }))).toHaveLength(30)
      const none = jobs.replaceAll('|b$', '')
      expect(await planPipeline(none, planContext({ variables: { MSG: `${'a'.repeat(40)}b` } }))).toEqual({ kind: 'errors', errors: [NO_JOBS] })
    })

    it('gives up with an error when the patterns of a file would cost more than a pipeline may spend in the worst case', async () => {
      // Each match may take up to 903 steps a character over 10,000 characters; six of them pass the budget.
      const rule = (i: number) => `j${i}:\n  script: x\n  rules:\n    - if: $MSG =~ /x[a-z]{900}y/\n`
      const ctx = planContext({ variables: { MSG: 'a'.repeat(10_000) } })
      expect(await planPipeline([0, 1, 2, 3, 4].map(rule).join(''), ctx)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
      expect(await planPipeline([0, 1, 2, 3, 4, 5].map(rule).join(''), ctx)).toEqual({ kind: 'errors', errors: [TOO_SLOW] })
    })

    it('is true when the changed paths are unknown', async () => {
      expect(await names(yaml, planContext({ changedPaths: null }))).toEqual(['docs', 'src'])
    })
  })

  describe('exists', () => {
    const yaml = 'docker:\n  script: x\n  rules:\n    - exists: [Dockerfile, "**/*.dockerfile"]\nnode:\n  script: x\n  rules:\n    - exists: {paths: [package.json]}\n'

    it('matches globs against the commit files', async () => {
      expect(await names(yaml, planContext({ files: { Dockerfile: '', 'README.md': '' } }))).toEqual(['docker'])
      expect(await names(yaml, planContext({ files: { 'build/app.dockerfile': '', 'package.json': '{}' } }))).toEqual(['docker', 'node'])
    })

    it('needs all clauses of a rule to hold', async () => {
      const both = 'job:\n  script: x\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\n      exists: [Makefile]\n      changes: [src/*]\n'
      expect(await names(both, planContext({ variables: { CI_COMMIT_BRANCH: 'main' }, files: { Makefile: '' }, changedPaths: ['src/a.c'] }))).toEqual(['job'])
      const missing = await planPipeline(both, planContext({ variables: { CI_COMMIT_BRANCH: 'main' }, files: {}, changedPaths: ['src/a.c'] }))
      expect(missing).toEqual({ kind: 'errors', errors: [NO_JOBS] })
    })
  })
})

describe('only and except', () => {
  it('runs on branches and tags by default, not on merge request pipelines', async () => {
    const yaml = 'job:\n  script: x\n'
    expect(await names(yaml, push)).toEqual(['job'])
    expect(await names(yaml, tag)).toEqual(['job'])
    expect(await planPipeline(yaml, mr)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
  })

  it.each([
    [['main'], push, true], [['main'], feature, false], [['/^feature\\/.*$/'], feature, true], [['/^FEATURE/i'], feature, true],
    [['branches'], tag, false], [['tags'], tag, true], [['merge_requests'], mr, true], [['web'], web, true], [['pushes'], web, false],
    [['api', 'schedules', 'triggers'], push, false], [['main@group/project'], push, true], [['/^ma/@group/project'], push, true],
  ] as const)('only %j on %s', async (refs, ctx, runs) => {
    const result = await planPipeline(`job:\n  script: x\n  only: ${JSON.stringify(refs)}\n`, ctx)
    expect(result.kind === 'plan').toBe(runs)
  })

  it('drops jobs that except names', async () => {
    expect(await planPipeline('job:\n  script: x\n  except: [main]\n', push)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
    expect(await names('job:\n  script: x\n  except: [main]\n', feature)).toEqual(['job'])
    expect(await planPipeline('job:\n  script: x\n  except: [tags]\n', tag)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
  })

  it('reads the hash form with refs, variables and changes', async () => {
    const yaml = 'job:\n  script: x\n  only:\n    refs: [main]\n    variables: [$RELEASE == "yes", $FORCE]\n    changes: [src/**/*]\n'
    expect(await names(yaml, planContext({ variables: { FORCE: '1' }, changedPaths: ['src/a/b.c'] }))).toEqual(['job'])
    expect((await planPipeline(yaml, planContext({ variables: {}, changedPaths: ['src/a/b.c'] }))).kind).toBe('errors')
    expect((await planPipeline(yaml, planContext({ variables: { FORCE: '1' }, changedPaths: ['README'] }))).kind).toBe('errors')
  })

  it('excludes when any part of except holds', async () => {
    const yaml = 'job:\n  script: x\n  except:\n    variables: [$SKIP]\n'
    expect((await planPipeline(yaml, planContext({ variables: { SKIP: 'true' } }))).kind).toBe('errors')
    expect(await names(yaml)).toEqual(['job'])
  })

})

describe('workflow:rules', () => {
  const yaml = `
workflow:
  rules:
    - if: $CI_COMMIT_TAG
      when: never
    - if: $CI_PIPELINE_SOURCE == "web"
      variables: {DEPLOY_TARGET: staging, G: workflow}
    - if: $CI_COMMIT_BRANCH
variables: {G: global}
job:
  script: x
`

  it('skips the pipeline when no rule matches or the rule says never', async () => {
    expect(await planPipeline(yaml, tag)).toEqual({ kind: 'skipped', reason: FILTERED_BY_WORKFLOW })
    expect(await planPipeline(yaml, mr)).toEqual({ kind: 'skipped', reason: FILTERED_BY_WORKFLOW })
  })

  it('runs the pipeline with the matching rule variables over the global ones', async () => {
    expect((await jobsOf(yaml, web))[0].variables).toEqual({ G: 'workflow', DEPLOY_TARGET: 'staging' })
    expect((await jobsOf(yaml, push))[0].variables).toEqual({ G: 'global' })
  })

  it('lets workflow variables decide job rules', async () => {
    const y = 'workflow:\n  rules:\n    - variables: {STAGE_ENV: qa}\njob:\n  script: x\n  rules:\n    - if: $STAGE_ENV == "qa"\n'
    expect(await names(y)).toEqual(['job'])
  })
})

describe('after the rules', () => {
  it('answers GitLab\u2019s message when only .pre and .post jobs are left', async () => {
    expect(await planPipeline('pre:\n  stage: .pre\n  script: x\n', push)).toEqual({ kind: 'errors', errors: [NO_JOBS] })
  })

  it('drops an optional need of a job left out', async () => {
    const yaml = 'build:\n  stage: build\n  script: x\n  rules:\n    - if: $NEVER\ntest:\n  script: x\n  needs: [{job: build, optional: true}]\n  dependencies: [build]\n'
    expect((await jobsOf(yaml))[0]).toMatchObject({ name: 'test', needs: [], dependencies: [] })
  })

  it('fails the pipeline when a required need was left out', async () => {
    const yaml = 'build:\n  stage: build\n  script: x\n  rules:\n    - if: $NEVER\ntest:\n  script: x\n  needs: [build]\n'
    expect(await planPipeline(yaml, push)).toEqual({
      kind: 'errors',
      errors: ["'test' job needs 'build' job, but 'build' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional."],
    })
  })

  it('refuses more than 50 needs, counting parallel instances', async () => {
    const yaml = 'build:\n  stage: build\n  script: x\n  parallel: 51\ntest:\n  script: y\n  needs: [build]\n'
    expect(await planPipeline(yaml, push)).toEqual({
      kind: 'errors', errors: ['test: one job can only need 50 others, but you have listed 51. See needs keyword documentation for more details'],
    })
  })

  it('answers an error for an if chain too long to evaluate, never a throw', async () => {
    const chain = Array.from({ length: 200_000 }, () => '$A').join(' || ')
    expect(await planPipeline(`job:\n  script: x\n  rules:\n    - if: '${chain}'\n`, push)).toEqual({ kind: 'errors', errors: ['The configuration is nested too deeply'] })
  })

  it('returns config errors as errors, never a throw', async () => {
    expect(await planPipeline('job:\n  script: x\n  rules:\n    - if: $A ==\n', push)).toEqual({
      kind: 'errors', errors: ['jobs:job:rules:rule if invalid expression syntax'],
    })
  })
})
