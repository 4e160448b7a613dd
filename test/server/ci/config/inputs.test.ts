// spec:inputs and $[[ inputs.name ]]: included files take inputs, the main file its defaults, refusals in GitLab's words.
import { describe, expect, it } from 'vitest'
import { planPipeline } from '../../../../src/server/ci/plan.js'
import { jobSpec, planContext } from './context.js'

const TEMPLATE = `spec:
  inputs:
    stage:
      default: test
    target:
    retries:
      type: number
      default: 1
    tags:
      type: array
      default: [linux]
    env:
      options: [qa, prod]
      default: qa
---
scan-$[[ inputs.target ]]:
  stage: $[[ inputs.stage ]]
  script: ["echo scanning $[[ inputs.target ]] in $[[ inputs.env ]]", "echo $[[ inputs.target | truncate(0,3) ]]"]
  retry: $[[ inputs.retries ]]
  tags: $[[ inputs.tags ]]
`
const files = { 'templates/scan.yml': TEMPLATE, 'plain.yml': 'plain:\n  script: [x]\n' }

async function result(yaml: string) {
  return planPipeline(yaml, planContext({ files }))
}

describe('include with inputs', () => {
  it('interpolates given inputs and defaults, keeping the type of a value that is one block', async () => {
    const r = await result('include:\n  - local: templates/scan.yml\n    inputs:\n      target: website\n      retries: 2\n  - local: templates/scan.yml\n    inputs: {target: db, env: prod, stage: build}\n')
    expect(r).toEqual({
      kind: 'plan',
      plan: {
        stages: ['build', 'test'],
        jobs: [
          jobSpec({ name: 'scan-website', stage: 'test', stageIdx: 1, script: ['echo scanning website in qa', 'echo web'], retry: { max: 2, when: ['always'] }, tags: ['linux'] }),
          jobSpec({ name: 'scan-db', stage: 'build', stageIdx: 0, script: ['echo scanning db in prod', 'echo db'], retry: { max: 1, when: ['always'] }, tags: ['linux'] }),
        ],
      },
    })
  })

  it.each([
    ['include:\n  - local: templates/scan.yml\n', '`templates/scan.yml`: `target` input: required value has not been provided'],
    ['include:\n  - local: templates/scan.yml\n    inputs: {target: x, retries: many}\n', '`templates/scan.yml`: `retries` input: provided value is not a number'],
    ['include:\n  - local: templates/scan.yml\n    inputs: {target: x, env: dev}\n', '`templates/scan.yml`: `env` input: `dev` cannot be used because it is not in the list of allowed options'],
    ['include:\n  - local: templates/scan.yml\n    inputs: {target: x, colour: red}\n', '`templates/scan.yml`: unknown input arguments: colour'],
    ['include:\n  - local: plain.yml\n    inputs: {target: x}\n', '`plain.yml`: Given inputs not defined in the `spec` section of the included configuration file'],
  ])('refuses %j', async (yaml, error) => {
    expect(await result(yaml)).toEqual({ kind: 'errors', errors: [error] })
  })
})

describe('the main file', () => {
  it('takes its own defaults', async () => {
    const r = await result('spec:\n  inputs:\n    image:\n      default: alpine\n---\njob:\n  image: $[[ inputs.image ]]\n  script: [x]\n')
    expect(r.kind === 'plan' && r.plan.jobs[0].image).toBe('alpine')
  })

  it('refuses unknown interpolation keys, unknown functions and too many functions', async () => {
    const head = 'spec:\n  inputs:\n    a:\n      default: x\n---\n'
    expect(await result(`${head}job:\n  script: ["$[[ inputs.b ]]"]\n`)).toEqual({ kind: 'errors', errors: ['unknown interpolation key: `b`'] })
    expect(await result(`${head}job:\n  script: ["$[[ inputs.a | shout ]]"]\n`)).toEqual({
      kind: 'errors', errors: ['no function matching `shout`: check that the function name, arguments, and types are correct'],
    })
    expect(await result(`${head}job:\n  script: ["$[[ inputs.a | expand_vars | expand_vars | expand_vars | expand_vars ]]"]\n`)).toEqual({
      kind: 'errors', errors: ['too many functions in interpolation block'],
    })
  })

  it('refuses an unknown input type', async () => {
    expect(await result('spec:\n  inputs:\n    a:\n      type: date\n      default: x\n---\njob:\n  script: [x]\n')).toEqual({
      kind: 'errors', errors: ['header:spec:inputs:a input type unknown value: date'],
    })
  })
})
