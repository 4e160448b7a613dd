// How a valid file becomes jobs: stages, default, extends, !reference, include and parallel, with exact JobSpecs.
import { describe, expect, it } from 'vitest'
import { lintConfig, planPipeline } from '../../../../src/server/ci/plan.js'
import type { PlanContext } from '../../../../src/server/ci/plan-types.js'
import { jobSpec, planContext } from './context.js'

async function plan(yaml: string, ctx: PlanContext = planContext()) {
  const result = await planPipeline(yaml, ctx)
  if (result.kind !== 'plan') throw new Error(`expected a plan, got ${JSON.stringify(result)}`)
  return result.plan
}

describe('stages', () => {
  it('puts a job without stage in test and lists only the stages that have jobs', async () => {
    const p = await plan('a:\n  script: echo a\nb:\n  stage: build\n  script: [echo b1, echo b2]\n')
    expect(p).toEqual({
      stages: ['build', 'test'],
      jobs: [
        jobSpec({ name: 'a', stage: 'test', stageIdx: 1, script: ['echo a'] }),
        jobSpec({ name: 'b', stage: 'build', stageIdx: 0, script: ['echo b1', 'echo b2'] }),
      ],
    })
  })

  it('keeps .pre first and .post last wherever the file lists them', async () => {
    const p = await plan('stages: [.post, one, .pre, two]\nz:\n  stage: .post\n  script: x\ny:\n  stage: two\n  script: x\nx:\n  stage: .pre\n  script: x\nw:\n  stage: one\n  script: x\n')
    expect(p.stages).toEqual(['.pre', 'one', 'two', '.post'])
    expect(p.jobs.map((j) => [j.name, j.stageIdx])).toEqual([['z', 3], ['y', 2], ['x', 0], ['w', 1]])
  })

  it('accepts types as the old name of stages and type as the old name of stage', async () => {
    const p = await plan('types: [compile]\na:\n  type: compile\n  script: x\n')
    expect(p.stages).toEqual(['compile'])
  })

  it('does not run hidden jobs or take keywords for jobs', async () => {
    const p = await plan('.hidden:\n  script: x\nvariables:\n  A: b\nimage: alpine\ncache: {}\nreal:\n  script: x\n')
    expect(p.jobs.map((j) => j.name)).toEqual(['real'])
  })
})

describe('default and global keywords', () => {
  it('hands default keywords to jobs that do not set them', async () => {
    const yaml = `
default:
  before_script: [setup]
  after_script: [cleanup]
  image: node:20
  tags: [docker]
  retry: 1
  timeout: 10m
  interruptible: true
own:
  script: x
  before_script: [mine]
  tags: []
plain:
  script: y
`
    const p = await plan(yaml)
    expect(p.jobs).toEqual([
      jobSpec({ name: 'own', stage: 'test', stageIdx: 0, script: ['x'], beforeScript: ['mine'], afterScript: ['cleanup'], image: 'node:20', tags: [], retry: { max: 1, when: ['always'] }, timeout: 600, interruptible: true }),
      jobSpec({ name: 'plain', stage: 'test', stageIdx: 0, script: ['y'], beforeScript: ['setup'], afterScript: ['cleanup'], image: 'node:20', tags: ['docker'], retry: { max: 1, when: ['always'] }, timeout: 600, interruptible: true }),
    ])
  })

  it('takes the legacy global before_script, image and services as defaults', async () => {
    const p = await plan('before_script: [legacy]\nimage: ruby\nservices: [postgres]\njob:\n  script: x\n')
    expect(p.jobs[0]).toMatchObject({ beforeScript: ['legacy'], image: 'ruby', services: ['postgres'] })
  })

  it('lets inherit:default and inherit:variables opt out', async () => {
    const yaml = 'variables:\n  A: a\n  B: b\ndefault:\n  image: x\n  before_script: [s]\nnone:\n  script: x\n  inherit: {default: false, variables: false}\nsome:\n  script: x\n  inherit: {default: [image], variables: [B]}\n'
    const p = await plan(yaml)
    expect(p.jobs[0]).toMatchObject({ image: null, beforeScript: [], variables: {} })
    expect(p.jobs[1]).toMatchObject({ image: 'x', beforeScript: [], variables: { B: 'b' } })
  })

  it('keeps a value with expand: false as written by escaping its dollars for the job-start expansion', async () => {
    const p = await plan('job:\n  script: x\n  variables:\n    RAW: {value: "a$HOME$$b", expand: false}\n    COOKED: "a$HOME"\n')
    expect(p.jobs[0].variables).toEqual({ RAW: 'a$$HOME$$$$b', COOKED: 'a$HOME' })
  })

  it('merges global, job and {value, description} variables, the job winning', async () => {
    const p = await plan('variables:\n  A: global\n  B: {value: described, description: shown in the form}\n  N: 3\njob:\n  script: x\n  variables:\n    A: job\n')
    expect(p.jobs[0].variables).toEqual({ A: 'job', B: 'described', N: '3' })
  })
})

describe('extends', () => {
  it('deep-merges hashes, replaces arrays, multi-level and in list order', async () => {
    const yaml = `
.base:
  variables: {A: base, B: base}
  script: [base]
  artifacts: {paths: [a], when: always}
.middle:
  extends: .base
  variables: {B: middle}
  artifacts: {paths: [m]}
.other:
  variables: {C: other}
  tags: [t]
job:
  extends: [.middle, .other]
  variables: {D: job}
`
    const p = await plan(yaml)
    expect(p.jobs).toEqual([jobSpec({
      name: 'job', stage: 'test', stageIdx: 0, script: ['base'], tags: ['t'],
      variables: { A: 'base', B: 'middle', C: 'other', D: 'job' },
      artifacts: { paths: ['m'], exclude: [], when: 'always', expireIn: null, name: null, untracked: false },
    })])
  })

  it('can extend a visible job', async () => {
    const p = await plan('a:\n  script: [a]\n  stage: build\nb:\n  extends: a\n')
    expect(p.jobs.map((j) => [j.name, j.stage, j.script])).toEqual([['a', 'build', ['a']], ['b', 'build', ['a']]])
  })
})

describe('!reference', () => {
  it('inserts referenced script lines, nested lists flattened, references inside references resolved', async () => {
    const yaml = `
.setup:
  script: [one, two]
.chain:
  script: [!reference [.setup, script], three]
.vars:
  variables: {X: x}
job:
  script:
    - !reference [.chain, script]
    - four
  variables: !reference [.vars, variables]
`
    const p = await plan(yaml)
    expect(p.jobs[0]).toMatchObject({ script: ['one', 'two', 'three', 'four'], variables: { X: 'x' } })
  })

  it('sees keys that extends brought in', async () => {
    const p = await plan('.a:\n  script: [from-a]\n.b:\n  extends: .a\njob:\n  script: !reference [.b, script]\n')
    expect(p.jobs[0].script).toEqual(['from-a'])
  })
})

describe('include:local', () => {
  const files = {
    'ci/build.yml': 'include: ci/nested.yml\nvariables:\n  FROM: build\nbuild:\n  stage: build\n  script: [make]\n',
    'ci/nested.yml': 'variables:\n  NESTED: yes-string\n  FROM: nested\nlint:\n  stage: .pre\n  script: [lint]\n',
    'ci/test.yml': 'test:\n  script: [test]\n  variables: {WHO: included}\n',
    'templates/a.yml': 'a:\n  script: [a]\n',
    'templates/b.yml': 'b:\n  script: [b]\n',
  }

  it('merges included files, nested ones first, and lets the including file win', async () => {
    const yaml = 'include:\n  - ./ci/build.yml\n  - local: /ci/test.yml\ntest:\n  variables: {WHO: main}\n'
    const p = await plan(yaml, planContext({ files }))
    expect(p.jobs.map((j) => [j.name, j.script, j.variables])).toEqual([
      ['lint', ['lint'], { NESTED: 'yes-string', FROM: 'build' }],
      ['build', ['make'], { NESTED: 'yes-string', FROM: 'build' }],
      ['test', ['test'], { NESTED: 'yes-string', FROM: 'build', WHO: 'main' }],
    ])
  })

  it('expands wildcards over the commit files in path order', async () => {
    const p = await plan('include: "templates/*.yml"\n', planContext({ files }))
    expect(p.jobs.map((j) => j.name)).toEqual(['a', 'b'])
  })

  it('reads each file once, so includes that include each other end', async () => {
    const loop = { 'x.yml': 'include: y.yml\nx:\n  script: [x]\n', 'y.yml': 'include: x.yml\ny:\n  script: [y]\n' }
    const p = await plan('include: x.yml\n', planContext({ files: loop }))
    expect(p.jobs.map((j) => j.name).sort()).toEqual(['x', 'y'])
  })

  it('includes a file only when its rules say so', async () => {
    const yaml = 'include:\n  - local: templates/a.yml\n    rules:\n      - if: $WITH_A\n  - local: templates/b.yml\n    rules:\n      - if: $WITH_A\n        when: never\n      - when: always\nc:\n  script: [c]\n'
    expect((await plan(yaml, planContext({ files, variables: { WITH_A: '1' } }))).jobs.map((j) => j.name)).toEqual(['a', 'c'])
    expect((await plan(yaml, planContext({ files }))).jobs.map((j) => j.name)).toEqual(['b', 'c'])
  })

  it('reports invalid include rules', async () => {
    const result = await planPipeline('include:\n  - local: templates/a.yml\n    rules:\n      - if: $A ==\nc:\n  script: [c]\n', planContext({ files }))
    expect(result).toEqual({ kind: 'errors', errors: ['include:rules:rule if invalid expression syntax'] })
  })

  it('lists the included files and the merged config for lint', async () => {
    const result = await lintConfig('include: [ci/test.yml]\n', planContext({ files }))
    expect(result).toEqual({
      valid: true, errors: [], warnings: [],
      merged: { test: { script: ['test'], variables: { WHO: 'included' } } },
      jobs: [jobSpec({ name: 'test', stage: 'test', stageIdx: 2, script: ['test'], variables: { WHO: 'included' } })],
    })
  })
})

describe('documents', () => {
  it('skips a spec: header document', async () => {
    const p = await plan('spec:\n  inputs:\n    env:\n      default: qa\n---\njob:\n  script: [x]\n')
    expect(p.jobs.map((j) => j.name)).toEqual(['job'])
  })

  it('takes the first document otherwise, as Psych does', async () => {
    const p = await plan('first:\n  script: [x]\n---\nsecond:\n  script: [y]\n')
    expect(p.jobs.map((j) => j.name)).toEqual(['first'])
  })

  it('understands anchors and merge keys', async () => {
    const p = await plan('.tpl: &tpl\n  script: [shared]\n  tags: [t]\njob:\n  <<: *tpl\n  tags: [own]\n')
    expect(p.jobs[0]).toMatchObject({ name: 'job', script: ['shared'], tags: ['own'] })
  })

  it('reads YAML 1.1 scalars as Psych does: yes/on/off booleans, octal numbers, y and dates as strings', async () => {
    const p = await plan('job:\n  script: [y]\n  allow_failure: yes\n  interruptible: On\n  variables: {MODE: 0755, DAY: 2024-01-01}\n')
    expect(p.jobs[0]).toMatchObject({ script: ['y'], allowFailure: true, interruptible: true, variables: { MODE: '493', DAY: '2024-01-01' } })
  })

  it('refuses a boolean variable written as yes, as GitLab does', async () => {
    expect(await planPipeline('job:\n  script: [x]\n  variables: {FLAG: yes}\n', planContext())).toEqual({
      kind: 'errors', errors: ['jobs:job:variables config should be a hash of key value pairs, value can be a hash'],
    })
  })

  it('lets a later duplicate key win', async () => {
    const p = await plan('job:\n  script: [one]\njob:\n  script: [two]\n')
    expect(p.jobs.map((j) => j.script)).toEqual([['two']])
  })
})

describe('parallel', () => {
  it('names instances "name i/N" and sets CI_NODE_INDEX and CI_NODE_TOTAL', async () => {
    const p = await plan('rspec:\n  script: x\n  parallel: 3\n')
    expect(p.jobs.map((j) => [j.name, j.variables])).toEqual([
      ['rspec 1/3', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' }],
      ['rspec 2/3', { CI_NODE_INDEX: '2', CI_NODE_TOTAL: '3' }],
      ['rspec 3/3', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' }],
    ])
  })

  it('names matrix instances by their values and sets them as variables', async () => {
    const yaml = 'deploy:\n  script: x\n  variables: {KEEP: k}\n  parallel:\n    matrix:\n      - PROVIDER: aws\n        STACK: [monitoring, app1]\n      - PROVIDER: [gcp, vultr]\n        STACK: data\n'
    const p = await plan(yaml)
    expect(p.jobs.map((j) => [j.name, j.variables])).toEqual([
      ['deploy: [aws, monitoring]', { KEEP: 'k', CI_NODE_INDEX: '1', CI_NODE_TOTAL: '4', PROVIDER: 'aws', STACK: 'monitoring' }],
      ['deploy: [aws, app1]', { KEEP: 'k', CI_NODE_INDEX: '2', CI_NODE_TOTAL: '4', PROVIDER: 'aws', STACK: 'app1' }],
      ['deploy: [gcp, data]', { KEEP: 'k', CI_NODE_INDEX: '3', CI_NODE_TOTAL: '4', PROVIDER: 'gcp', STACK: 'data' }],
      ['deploy: [vultr, data]', { KEEP: 'k', CI_NODE_INDEX: '4', CI_NODE_TOTAL: '4', PROVIDER: 'vultr', STACK: 'data' }],
    ])
  })

  it('needs only the matrix instances named by needs:parallel:matrix', async () => {
    const yaml = 'build:\n  stage: build\n  script: x\n  parallel:\n    matrix:\n      - OS: [linux, mac]\n        ARCH: [x64, arm]\ntest:\n  script: y\n  needs:\n    - job: build\n      parallel:\n        matrix:\n          - OS: linux\n            ARCH: [arm, x64]\n'
    const p = await plan(yaml)
    expect(p.jobs.map((j) => j.name)).toEqual(['build: [linux, x64]', 'build: [linux, arm]', 'build: [mac, x64]', 'build: [mac, arm]', 'test'])
    expect(p.jobs[4].needs).toEqual([
      { job: 'build: [linux, arm]', artifacts: true, optional: false }, { job: 'build: [linux, x64]', artifacts: true, optional: false },
    ])
  })

  it('refuses a matrix need of an instance that does not exist', async () => {
    const result = await planPipeline('build:\n  script: x\n  parallel:\n    matrix:\n      - OS: [linux]\ntest:\n  script: y\n  needs:\n    - job: build\n      parallel: {matrix: [{OS: bsd}]}\n', planContext())
    expect(result).toEqual({ kind: 'errors', errors: ['test job: undefined need: build: [bsd]'] })
  })

  it('points needs and dependencies of the base name at every instance', async () => {
    const p = await plan('build:\n  stage: build\n  script: x\n  parallel: 2\ntest:\n  script: y\n  needs: [build]\n  dependencies: [build]\n')
    expect(p.jobs[2]).toMatchObject({
      needs: [{ job: 'build 1/2', artifacts: true, optional: false }, { job: 'build 2/2', artifacts: true, optional: false }],
      dependencies: ['build 1/2', 'build 2/2'],
    })
  })
})

describe('job keywords', () => {
  it('records every keyword in the JobSpec', async () => {
    const yaml = `
job:
  stage: deploy
  script: deploy.sh
  before_script: prep.sh
  after_script: [clean.sh]
  when: delayed
  start_in: 30 minutes
  allow_failure: {exit_codes: [2, 3]}
  artifacts:
    name: bundle
    paths: [dist/]
    exclude: [dist/*.map]
    when: on_failure
    expire_in: 1 week
    untracked: true
  coverage: '/Total: (\\d+\\.\\d+)%/'
  retry: {max: 2, when: [script_failure, api_failure]}
  timeout: 1h 30m
  interruptible: true
  image: {name: alpine, entrypoint: [""]}
  services: [redis]
  cache: {paths: [node_modules]}
  tags: [linux]
  environment: production
`
    const p = await plan(yaml)
    expect(p.jobs).toEqual([jobSpec({
      name: 'job', stage: 'deploy', stageIdx: 0, script: ['deploy.sh'], beforeScript: ['prep.sh'], afterScript: ['clean.sh'],
      when: 'delayed', startIn: 1800, allowFailure: false, allowFailureExitCodes: [2, 3],
      artifacts: { paths: ['dist/'], exclude: ['dist/*.map'], when: 'on_failure', expireIn: '1 week', name: 'bundle', untracked: true },
      coverageRegex: 'Total: (\\d+\\.\\d+)%', retry: { max: 2, when: ['script_failure', 'api_failure'] }, timeout: 5400,
      interruptible: true, image: { name: 'alpine', entrypoint: [''] }, services: ['redis'], cache: { paths: ['node_modules'] }, tags: ['linux'],
      environment: { name: 'production', url: null, action: 'start', onStop: null, deploymentTier: null, autoStopIn: null },
    })])
  })

  it('reads needs as names or hashes', async () => {
    const p = await plan('a:\n  stage: build\n  script: x\nb:\n  stage: build\n  script: x\nc:\n  script: x\n  needs: [a, {job: b, artifacts: false, optional: true}]\nd:\n  script: x\n  needs: []\n')
    expect(p.jobs.slice(2).map((j) => j.needs)).toEqual([
      [{ job: 'a', artifacts: true, optional: false }, { job: 'b', artifacts: false, optional: true }],
      [],
    ])
  })

  it('lets a job need another in its own stage', async () => {
    const p = await plan('a:\n  script: x\nb:\n  script: x\n  needs: [a]\n')
    expect(p.jobs[1].needs).toEqual([{ job: 'a', artifacts: true, optional: false }])
  })

  it('makes manual jobs outside rules allowed to fail unless they say otherwise', async () => {
    const p = await plan('a:\n  script: x\n  when: manual\nb:\n  script: x\n  when: manual\n  allow_failure: false\n')
    expect(p.jobs.map((j) => [j.when, j.allowFailure])).toEqual([['manual', true], ['manual', false]])
  })

  it('leaves trigger jobs out (child pipelines do not run here) and lint says so', async () => {
    const yaml = 'child:\n  trigger: {include: child.yml}\nreal:\n  script: x\n'
    expect((await plan(yaml)).jobs.map((j) => j.name)).toEqual(['real'])
    expect((await lintConfig(yaml)).warnings).toEqual(['jobs:child uses trigger: downstream pipelines are not run by this server, so the job is left out'])
  })
})
