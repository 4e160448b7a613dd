// Config cases from gitlab-ci-local's published tests where collab and GitLab's `.gitlab-ci.yml` reference disagreed,
// checked through POST /projects/:id/ci/lint: empty variables, matrix expressions in needs, needs nested by !reference,
// a blank script and the `${VAR}` form in rules:if. (A `(?i)` coverage pattern is in re2-patterns.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus, type Api } from '../../../helpers/api.js'
import { commit, create } from '../../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../../helpers/server.js'

let server: TestServer
let root: Api
let projectId: number

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  projectId = (await createProject(root, { name: 'cases' })).id
  // A dry run plans a pipeline on a commit.
  await commit(root, projectId, { branch: 'master', commit_message: 'init', actions: [create('README.md', 'x')] })
})
afterAll(() => server.close())

async function lint(content: string) {
  return expectStatus(await root.post(`/projects/${projectId}/ci/lint`, { content, include_jobs: true }), 200).body
}

/** Each planned job's name with the names of the jobs it needs, or the lint errors. */
async function needsOf(content: string): Promise<Record<string, string[] | null> | string[]> {
  const body = await lint(content)
  if (!body.valid) return body.errors
  return Object.fromEntries(body.jobs.map((j: { name: string; needs: { name: string }[] | null }) => [j.name, j.needs && j.needs.map((n) => n.name)]))
}

describe('variables', () => {
  it('takes a variable with no value as an empty one, globally, in a job and in a rule', async () => {
    const body = await lint('variables:\n  EMPTY:\njob:\n  script: [x]\n  variables:\n    ALSO_EMPTY:\n  rules:\n    - variables:\n        IN_RULE:\n')
    expect([body.valid, body.errors]).toEqual([true, []])
  })
})

describe('variables that refer to each other in a ring', () => {
  it('refuses the job when the pipeline is planned, and lets a variable extend its own name', async () => {
    const content = 'variables:\n  PATH_X: base\njob:\n  script: [x]\n  variables:\n    PATH_X: "$PATH_X:more"\n    A: "a$B"\n    B: "b$A"\n'
    const body = expectStatus(await root.post(`/projects/${projectId}/ci/lint`, { content, dry_run: true, ref: 'master' }), 200).body
    expect([body.valid, body.errors]).toEqual([false, ['job: circular variable reference detected: ["A", "B"]']])
    const fine = expectStatus(await root.post(`/projects/${projectId}/ci/lint`, { content: content.replace('b$A', 'b'), dry_run: true, ref: 'master' }), 200).body
    expect([fine.valid, fine.errors]).toEqual([true, []])
  })
})

describe('needs:parallel:matrix with matrix expressions', () => {
  const MATRIX = '  parallel:\n    matrix:\n      - OS: [linux, mac]\n        ARCH: [amd64, arm64]\n'
  /** A matrix build and a matrix test that needs the build named by `arch` (a matrix expression for ARCH). */
  const buildAndTest = (arch: string) => `build:\n  stage: build\n  script: [b]\n${MATRIX}test:\n  script: [t]\n${MATRIX}  needs:
    - job: build
      parallel:
        matrix:
          - OS: ['$[[ matrix.OS ]]']
            ARCH: ['${arch}']
`

  it('needs the build with the same matrix values, one to one', async () => {
    expect(await needsOf(buildAndTest('$[[ matrix.ARCH ]]'))).toMatchObject({
      'test: [linux, amd64]': ['build: [linux, amd64]'], 'test: [linux, arm64]': ['build: [linux, arm64]'],
      'test: [mac, amd64]': ['build: [mac, amd64]'], 'test: [mac, arm64]': ['build: [mac, arm64]'],
    })
  })

  it('mixes an expression with fixed values, also in a file with an inputs header', async () => {
    const config = `spec:\n  inputs:\n    version:\n      default: "18"\n---\nprepare:\n  stage: build\n  script: [p]
  parallel:\n    matrix:\n      - PLATFORM: [linux, windows]\n        VERSION: ["16", "18"]
build:\n  script: [b]\n  parallel:\n    matrix:\n      - PLATFORM: [linux, windows]
  needs:
    - job: prepare
      parallel:
        matrix:
          - PLATFORM: ['$[[ matrix.PLATFORM ]]']
            VERSION: ['$[[ inputs.version ]]']
`
    expect(await needsOf(config)).toMatchObject({ 'build: [linux]': ['prepare: [linux, 18]'], 'build: [windows]': ['prepare: [windows, 18]'] })
  })

  it("refuses an identifier the job's matrix does not have", async () => {
    expect(await needsOf(buildAndTest('$[[ matrix.NONEXISTENT ]]'))).toEqual(["test job: 'NONEXISTENT' does not exist in matrix configuration"])
  })
})

describe('needs nested by !reference', () => {
  it('flattens the nested lists into one list of needs', async () => {
    const config = `.common:\n  needs: [a, {job: b, artifacts: false}]
a:\n  stage: build\n  script: [a]\nb:\n  stage: build\n  script: [b]\nc:\n  stage: build\n  script: [c]
job:\n  script: [x]\n  needs:\n    - !reference [.common, needs]\n    - [c]
`
    expect(await needsOf(config)).toMatchObject({ job: ['a', 'b', 'c'] })
  })
})

describe('script', () => {
  it("refuses an empty script as GitLab's presence check does", async () => {
    for (const script of ['[]', '""']) {
      const body = await lint(`job:\n  script: ${script}\n`)
      expect([body.valid, body.errors]).toEqual([false, ["jobs:job script can't be blank"]])
    }
  })
})

describe('rules:if', () => {
  it('reads $VAR but refuses ${VAR}, which is no variable in GitLab expressions', async () => {
    const ok = await lint('job:\n  script: [x]\n  rules:\n    - if: $CI_COMMIT_BRANCH == "main"\n')
    expect([ok.valid, ok.errors]).toEqual([true, []])
    const braced = await lint('job:\n  script: [x]\n  rules:\n    - if: ${CI_COMMIT_BRANCH} == "main"\n')
    expect([braced.valid, braced.errors]).toEqual([false, ['jobs:job:rules:rule if invalid expression syntax']])
  })
})
