// lintConfig on broken files: each problem is reported alone or in file order, in GitLab's words.
import { describe, expect, it } from 'vitest'
import { lintConfig } from '../../../../src/server/ci/plan.js'
import { planContext } from './context.js'

async function errorsOf(yaml: string, files: Record<string, string> = {}) {
  const result = await lintConfig(yaml, planContext({ files }))
  expect(result.valid).toBe(false)
  expect(result.jobs).toEqual([])
  return result.errors
}

describe('the file as a whole', () => {
  it('asks for content when the file is blank', async () => {
    expect(await errorsOf('  \n')).toEqual(['Please provide content of .gitlab-ci.yml'])
  })

  it('reports a YAML syntax error with its position', async () => {
    expect(await errorsOf('build:\n  script: [echo\n')).toEqual([
      '(<unknown>): Flow sequence in block collection must be sufficiently indented and end with a ] at line 3 column 1',
    ])
  })

  it('refuses a document that is not a hash', async () => {
    expect(await errorsOf('- build\n- test\n')).toEqual(['Invalid configuration format'])
    expect(await errorsOf('just text')).toEqual(['Invalid configuration format'])
  })

  it('needs one visible job', async () => {
    expect(await errorsOf('.hidden:\n  script: echo\nvariables:\n  A: b\n')).toEqual(['jobs config should contain at least one visible job'])
  })

  it('checks stages and global variables', async () => {
    expect(await errorsOf('stages: build\njob:\n  script: x\n')).toEqual(['stages config should be an array of strings'])
    expect(await errorsOf('variables: [A]\njob:\n  script: x\n')).toEqual(['variables config should be a hash of key value pairs, value can be a hash'])
    expect(await errorsOf('variables:\n  A: true\njob:\n  script: x\n')).toEqual(['variables config should be a hash of key value pairs, value can be a hash'])
  })

  it('checks default and workflow keys', async () => {
    expect(await errorsOf('default:\n  stage: build\n  image: x\njob:\n  script: x\n')).toEqual(['default config contains unknown keys: stage'])
    expect(await errorsOf('workflow:\n  rules:\n    - if: $A\n      when: manual\njob:\n  script: x\n')).toEqual([
      'workflow:rules:rule when unknown value: manual',
    ])
  })
})

describe('jobs', () => {
  it('wants a script or a trigger', async () => {
    expect(await errorsOf('build:\n  stage: build\n')).toEqual(['jobs:build config should implement a script: or a trigger: keyword'])
    expect(await errorsOf('build: make\n')).toEqual(['jobs:build config should implement a script: or a trigger: keyword'])
  })

  it('names unknown keys', async () => {
    expect(await errorsOf('build:\n  script: x\n  foo: 1\n  bar: 2\n')).toEqual(['jobs:build config contains unknown keys: foo, bar'])
  })

  it('reports every invalid job in file order', async () => {
    expect(await errorsOf('a:\n  stage: build\nb:\n  script: x\n  when: later\nc:\n  script: [1]\n')).toEqual([
      'jobs:a config should implement a script: or a trigger: keyword',
      'jobs:b when should be one of: on_success, on_failure, always, manual, delayed',
      'jobs:c:script config should be a string or a nested array of strings up to 10 levels deep',
    ])
  })

  it('names an unknown stage with the stages there are', async () => {
    expect(await errorsOf('build:\n  stage: compile\n  script: x\n')).toEqual([
      'build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post',
    ])
    expect(await errorsOf('stages: [one, two]\nbuild:\n  script: x\n')).toEqual([
      'build job: chosen stage does not exist; available stages are .pre, one, two, .post',
    ])
  })

  it('checks start_in against when', async () => {
    expect(await errorsOf('a:\n  script: x\n  when: delayed\n')).toEqual(["jobs:a start in can't be blank"])
    expect(await errorsOf('a:\n  script: x\n  start_in: 5 minutes\n')).toEqual(['jobs:a start in must be blank'])
    expect(await errorsOf('a:\n  script: x\n  when: delayed\n  start_in: soon\n')).toEqual(['jobs:a start in should be a duration'])
    expect(await errorsOf('a:\n  script: x\n  when: delayed\n  start_in: 1 hour\n  rules:\n    - when: delayed\n      start_in: 1 hour\n')).toEqual([
      'jobs:a config key may not be used with `rules`: start_in',
    ])
    expect(await errorsOf('a:\n  script: x\n  when: delayed\n  start_in: 8 days\n')).toEqual(['jobs:a start in should not exceed the limit'])
  })

  it('checks the smaller keywords', async () => {
    expect(await errorsOf('a:\n  script: x\n  retry: 3\n')).toEqual(['jobs:a:retry config must be less than or equal to 2'])
    expect(await errorsOf('a:\n  script: x\n  retry: {max: 1, when: [sometimes]}\n')).toEqual(['jobs:a:retry when contains unknown values: sometimes'])
    expect(await errorsOf('a:\n  script: x\n  coverage: "\\\\d+%"\n')).toEqual(['jobs:a:coverage config must be a regular expression with re2 syntax'])
    expect(await errorsOf('a:\n  script: x\n  coverage: "/(unclosed/"\n')).toEqual(['jobs:a:coverage config must be a regular expression with re2 syntax'])
    expect(await errorsOf('a:\n  script: x\n  timeout: a while\n')).toEqual(['jobs:a:timeout config should be a duration'])
    expect(await errorsOf('a:\n  script: x\n  allow_failure: maybe\n')).toEqual(['jobs:a:allow_failure config should be a hash or a boolean value'])
    expect(await errorsOf('a:\n  script: x\n  interruptible: yes please\n')).toEqual(['jobs:a:interruptible config should be a boolean value'])
    expect(await errorsOf('a:\n  script: x\n  tags: docker\n')).toEqual(['jobs:a:tags config should be an array of strings'])
    expect(await errorsOf('a:\n  script: x\n  variables: {A: [1]}\n')).toEqual(['jobs:a:variables config should be a hash of key value pairs, value can be a hash'])
    expect(await errorsOf('a:\n  script: x\n  parallel: 0\n')).toEqual(['jobs:a:parallel config must be greater than or equal to 1'])
    expect(await errorsOf('a:\n  script: x\n  parallel: 201\n')).toEqual(['jobs:a:parallel config must be less than or equal to 200'])
    expect(await errorsOf('a:\n  script: x\n  parallel: {matrix: [A]}\n')).toEqual(['jobs:a:parallel:matrix config should be an array of hashes'])
  })

  it('checks the shape of image, services and environment', async () => {
    expect(await errorsOf('a:\n  script: x\n  image: [alpine]\n')).toEqual(['jobs:a:image config should be a hash or a string'])
    expect(await errorsOf('a:\n  script: x\n  services: postgres\n')).toEqual(['jobs:a:services config should be a array'])
    expect(await errorsOf('a:\n  script: x\n  services: [postgres, 3]\n')).toEqual(['jobs:a:services:service config should be a hash or a string'])
    expect(await errorsOf('a:\n  script: x\n  environment: {url: "https://x"}\n')).toEqual(["jobs:a:environment name can't be blank"])
    expect(await errorsOf('default:\n  image: 3\na:\n  script: x\n')).toEqual(['default:image config should be a hash or a string', 'jobs:a:image config should be a hash or a string'])
  })

  it('checks artifacts', async () => {
    expect(await errorsOf('a:\n  script: x\n  artifacts:\n    paths: out\n    when: sometimes\n    expire_in: later\n    size: 1\n')).toEqual([
      'jobs:a:artifacts config contains unknown keys: size',
      'jobs:a:artifacts paths should be an array of strings',
      'jobs:a:artifacts when should be on_success, on_failure or always',
      'jobs:a:artifacts expire in should be a duration',
    ])
  })

  it('refuses when: never outside rules', async () => {
    expect(await errorsOf('a:\n  script: x\n  when: never\n')).toEqual(['jobs:a when should be one of: on_success, on_failure, always, manual, delayed'])
  })

  it('refuses script beside run', async () => {
    expect(await errorsOf('a:\n  script: x\n  run: [{name: s, script: x}]\n')).toEqual(['jobs:a config these keys cannot be used together: script, run'])
  })

  it('wants dependencies among the needs when both are given', async () => {
    expect(await errorsOf('a:\n  stage: build\n  script: x\nb:\n  stage: build\n  script: x\nc:\n  script: x\n  needs: [a]\n  dependencies: [a, b]\n')).toEqual([
      'jobs:c dependencies the b should be part of needs',
    ])
  })

  it('refuses only/except beside rules', async () => {
    expect(await errorsOf('a:\n  script: x\n  only: [main]\n  rules:\n    - when: always\n')).toEqual([
      'jobs:a config key may not be used with `rules`: only',
    ])
  })
})

describe('rules', () => {
  it('refuses an invalid if expression', async () => {
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - if: $A = "b"\n')).toEqual(['jobs:foo:rules:rule if invalid expression syntax'])
    expect(await errorsOf('workflow:\n  rules:\n    - if: ($A\nfoo:\n  script: x\n')).toEqual(['workflow:rules:rule if invalid expression syntax'])
  })

  it('checks each rule', async () => {
    expect(await errorsOf('foo:\n  script: x\n  rules: {if: $A}\n')).toEqual(['jobs:foo:rules config should be a array'])
    expect(await errorsOf('foo:\n  script: x\n  rules: []\n')).toEqual(["jobs:foo:rules config can't be blank"])
    expect(await errorsOf('foo:\n  script: x\n  rules: [just-text]\n')).toEqual(['jobs:foo:rules:rule config should be a hash'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - iff: $A\n')).toEqual(['jobs:foo:rules:rule config contains unknown keys: iff'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - when: sometimes\n')).toEqual(['jobs:foo:rules:rule when unknown value: sometimes'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - start_in: 1 hour\n')).toEqual(['jobs:foo:rules:rule config contains disallowed keys: start_in'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - when: delayed\n      start_in: whenever\n')).toEqual(['jobs:foo:rules:rule start in should be a duration'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - allow_failure: {exit_codes: 1}\n')).toEqual(['jobs:foo:rules:rule allow failure should be a boolean value'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - changes: 3\n')).toEqual(['jobs:foo:rules:rule:changes config should be an array or a hash'])
    expect(await errorsOf('foo:\n  script: x\n  rules:\n    - when: delayed\n')).toEqual(["jobs:foo:rules:rule start in can't be blank"])
  })
})

describe('needs and dependencies', () => {
  it('refuses a need of a job that does not exist', async () => {
    expect(await errorsOf('test:\n  script: x\n  needs: [build]\n')).toEqual(['test job: undefined need: build'])
  })

  it('accepts an optional need of a job that does not exist', async () => {
    const result = await lintConfig('test:\n  script: x\n  needs: [{job: build, optional: true}]\n')
    expect(result.errors).toEqual([])
  })

  it('refuses a need of a later stage', async () => {
    expect(await errorsOf('build:\n  stage: build\n  script: x\n  needs: [test]\ntest:\n  script: y\n')).toEqual([
      'build job: need test is not defined in current or prior stages',
    ])
  })

  it('refuses needs listed twice', async () => {
    expect(await errorsOf('build:\n  stage: build\n  script: x\ntest:\n  script: y\n  needs: [build, {job: build}]\n')).toEqual([
      'test has the following needs duplicated: build.',
    ])
  })

  it('checks the needs of rules too', async () => {
    expect(await errorsOf('test:\n  script: y\n  rules:\n    - needs: [lint]\n')).toEqual(['test job: undefined need: lint'])
  })

  it('checks the shape of a need', async () => {
    expect(await errorsOf('test:\n  script: y\n  needs: [{artifacts: false}]\n')).toEqual(["jobs:test:needs:need job can't be blank"])
    expect(await errorsOf('test:\n  script: y\n  needs: [{job: 3}]\n')).toEqual(['jobs:test:needs:need job should be a string'])
    expect(await errorsOf('test:\n  script: y\n  needs: build\n')).toEqual(['jobs:test:needs config can only be a hash or an array'])
  })

  it('refuses a cycle', async () => {
    expect(await errorsOf('a:\n  script: x\n  needs: [b]\nb:\n  script: y\n  needs: [c]\nc:\n  script: z\n  needs: [a]\n')).toEqual([
      'The pipeline has circular dependencies',
    ])
  })

  it('checks dependencies', async () => {
    expect(await errorsOf('test:\n  script: x\n  dependencies: [nope]\n')).toEqual(['test job: undefined dependency: nope'])
    expect(await errorsOf('a:\n  stage: build\n  script: x\n  dependencies: [b]\nb:\n  script: y\n')).toEqual([
      'a job: dependency b is not defined in current or prior stages',
    ])
    expect(await errorsOf('a:\n  script: x\n  dependencies: b\n')).toEqual(['jobs:a dependencies should be an array of strings'])
  })
})

describe('extends, !reference and include', () => {
  it('detects extends cycles', async () => {
    expect(await errorsOf('.a:\n  extends: .b\n.b:\n  extends: .a\njob:\n  extends: .a\n  script: x\n')).toEqual([
      '.a: circular dependency detected in `extends`',
    ])
    expect(await errorsOf('job:\n  extends: job\n  script: x\n')).toEqual(['job: circular dependency detected in `extends`'])
  })

  it('wants extends to name keys', async () => {
    expect(await errorsOf('job:\n  extends: {a: 1}\n  script: x\n')).toEqual(['jobs:job extends should be an array of strings or a string'])
  })

  it('names unknown and invalid bases', async () => {
    expect(await errorsOf('job:\n  extends: [.nope, .gone]\n  script: x\n')).toEqual(['job: unknown keys in `extends` (.nope, .gone)'])
    expect(await errorsOf('.str: text\njob:\n  extends: .str\n  script: x\n')).toEqual(['job: invalid base hashes in `extends` (.str)'])
  })

  it('stops extends nested more than 10 levels', async () => {
    const chain = Array.from({ length: 12 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join('') + '.l12:\n  script: x\n'
    expect(await errorsOf(`${chain}job:\n  extends: .l0\n`)).toEqual(['.l11: nesting too deep in `extends`'])
  })

  it('reports a !reference that leads nowhere', async () => {
    expect(await errorsOf('.a:\n  b: 1\njob:\n  script: !reference [.a, script]\n')).toEqual(['!reference [".a", "script"] could not be found'])
  })

  it('reports include problems', async () => {
    expect(await errorsOf('include: ci/missing.yml\njob:\n  script: x\n')).toEqual(['Local file `ci/missing.yml` does not exist!'])
    expect(await errorsOf('include: ci/notes.txt\njob:\n  script: x\n')).toEqual(['Included file `ci/notes.txt` does not have YAML extension!'])
    expect(await errorsOf('include: ci/bad.yml\njob:\n  script: x\n', { 'ci/bad.yml': 'a: [' })).toEqual([
      'Included file `ci/bad.yml` does not have valid YAML syntax!',
    ])
    expect(await errorsOf('include: ci/empty.yml\njob:\n  script: x\n', { 'ci/empty.yml': '\n' })).toEqual(['Local file `ci/empty.yml` is empty!'])
    expect(await errorsOf('include: [{remote: "https://example.com/a.yml"}]\njob:\n  script: x\n')).toEqual([
      'Include `remote` is not supported: only local files can be included',
    ])
    expect(await errorsOf('include: [{nothing: a.yml}]\njob:\n  script: x\n')).toEqual(['Include `{"nothing":"a.yml"}` needs to match exactly one accessor!'])
    expect(await errorsOf('include: "ci/*.yml"\njob:\n  script: x\n')).toEqual(['Local file `ci/*.yml` does not exist!'])
  })

  it('reports errors of included jobs as its own', async () => {
    expect(await errorsOf('include: ci/jobs.yml\n', { 'ci/jobs.yml': 'build:\n  stage: nowhere\n  script: x\n' })).toEqual([
      'build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post',
    ])
  })
})

describe('warnings', () => {
  const WARNING = 'may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings'

  it('warns about a last rule that is a bare when without workflow:rules', async () => {
    const result = await lintConfig('a:\n  script: x\n  rules:\n    - if: $X\n    - when: on_success\nb:\n  script: x\n  rules:\n    - when: never\nc:\n  script: x\n  rules:\n    - if: $Y\n      when: always\n')
    expect(result).toMatchObject({ valid: true, errors: [], warnings: [`jobs:a ${WARNING}`] })
  })

  it('does not warn once workflow:rules exist', async () => {
    const result = await lintConfig('workflow:\n  rules:\n    - when: always\na:\n  script: x\n  rules:\n    - when: on_success\n')
    expect(result.warnings).toEqual([])
  })
})
