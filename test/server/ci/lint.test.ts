// CI lint through the real server: POST and GET /projects/:id/ci/lint (static and dry run, local includes read from
// the project's commit) and the older POST /ci/lint, with who may call them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CiLintResult, LegacyCiLintResult } from '../../../src/contract/entities/ci-lint.js'
import { api, createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { commit, create } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let guest: TestUser
let stranger: TestUser
let project: { id: number; path_with_namespace: string; default_branch: string }
let firstSha: string
let secondSha: string

const CONFIG_V1 = 'build:\n  stage: build\n  script: [make]\n'
const CONFIG_V2 = `include: ci/test.yml
workflow:
  rules:
    - if: $CI_COMMIT_TAG
      when: never
    - when: always
build:
  stage: build
  script: [make]
  only: [main, /^release/]
deploy:
  stage: deploy
  script: [./deploy]
  environment: {name: production}
  rules:
    - if: $CI_COMMIT_BRANCH == "main"
      when: manual
`
const TEST_YML = 'test:\n  script: [make test]\n  needs: [build]\n  tags: [linux]\n'

beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  guest = await createUser(server, 'guest')
  stranger = await createUser(server, 'stranger')
  project = await createProject(alice.api, { name: 'Lint', path: 'lint', visibility: 'private', default_branch: 'main' })
  expectStatus(await alice.api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 }), 201)
  firstSha = (await commit(alice.api, project.id, { branch: 'main', commit_message: 'ci', actions: [create('.gitlab-ci.yml', CONFIG_V1)] })).id
  secondSha = (await commit(alice.api, project.id, {
    branch: 'main', commit_message: 'ci 2', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: CONFIG_V2 }, create('ci/test.yml', TEST_YML)],
  })).id
})
afterAll(() => server.close())

const lintPath = () => `/projects/${project.id}/ci/lint`
const webUrl = () => `${server.url}/${project.path_with_namespace}`

describe('POST /projects/:id/ci/lint', () => {
  it('answers a valid config with its merged YAML', async () => {
    const res = expectStatus(await alice.api.post(lintPath(), { content: 'build:\n  script: make\n  variables: {A: b, B: "yes", C: "0755"}\n' }), 200)
    expect(res.body).toEqual({
      valid: true, errors: [], warnings: [], includes: [],
      merged_yaml: "---\nbuild:\n  script: make\n  variables:\n    A: b\n    B: 'yes'\n    C: '0755'\n",
    })
    CiLintResult.strict().parse(res.body)
  })

  it('lists the jobs by stage with include_jobs', async () => {
    const content = 'test:\n  script: [t]\n  except: [tags]\nbuild:\n  stage: build\n  before_script: [b]\n  script: [m]\n  when: manual\n  rules:\n    - when: manual\n'
    const res = expectStatus(await alice.api.post(lintPath(), { content, include_jobs: true }), 200)
    expect(res.body.jobs).toEqual([
      { name: 'build', stage: 'build', before_script: ['b'], script: ['m'], after_script: [], tag_list: [], only: null, except: null, environment: null, when: 'manual', allow_failure: false, needs: null },
      { name: 'test', stage: 'test', before_script: [], script: ['t'], after_script: [], tag_list: [], only: { refs: ['branches', 'tags'] }, except: { refs: ['tags'] }, environment: null, when: 'on_success', allow_failure: false, needs: null },
    ])
  })

  it('reports what is wrong, with the merged YAML once the file could be read', async () => {
    const broken = expectStatus(await alice.api.post(lintPath(), { content: 'build:\n  stage: nowhere\n  script: x\n' }), 200)
    expect(broken.body).toEqual({
      valid: false, warnings: [], includes: [],
      errors: ['build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post'],
      merged_yaml: '---\nbuild:\n  stage: nowhere\n  script: x\n',
    })
    const notYaml = expectStatus(await alice.api.post(lintPath(), { content: 'a: [\n' }), 200)
    expect(notYaml.body).toEqual({
      valid: false, warnings: [], includes: [], merged_yaml: null,
      errors: ['(<unknown>): Flow sequence in block collection must be sufficiently indented and end with a ] at line 2 column 1'],
    })
    const blank = expectStatus(await alice.api.post(lintPath(), { content: '' }), 200)
    expect(blank.body.errors).toEqual(['Please provide content of .gitlab-ci.yml'])
  })

  it('reads local includes from the default branch and links them', async () => {
    const res = expectStatus(await alice.api.post(lintPath(), { content: 'include:\n  - local: ci/test.yml\nbuild:\n  stage: build\n  script: [make]\n' }), 200)
    expect(res.body).toEqual({
      valid: true, errors: [], warnings: [],
      merged_yaml: '---\ntest:\n  script:\n  - make test\n  needs:\n  - build\n  tags:\n  - linux\nbuild:\n  stage: build\n  script:\n  - make\n',
      includes: [{
        type: 'local', location: 'ci/test.yml', blob: `${webUrl()}/-/blob/${secondSha}/ci/test.yml`, raw: `${webUrl()}/-/raw/${secondSha}/ci/test.yml`,
        extra: {}, context_project: project.path_with_namespace, context_sha: secondSha,
      }],
    })
  })

  it('reads includes at the given ref, where they may be missing', async () => {
    expectStatus(await alice.api.post(`/projects/${project.id}/repository/branches`, { branch: 'old', ref: firstSha }), 201)
    const res = expectStatus(await alice.api.post(lintPath(), { content: 'include: ci/test.yml\n', ref: 'old' }), 200)
    expect(res.body.errors).toEqual(['Local file `ci/test.yml` does not exist!'])
  })

  it('creates the pipeline in a dry run: rules evaluated on the ref', async () => {
    const res = expectStatus(await alice.api.post(lintPath(), { content: CONFIG_V2, dry_run: true, include_jobs: true }), 200)
    expect(res.body.valid).toBe(true)
    expect(res.body.jobs).toEqual([
      { name: 'build', stage: 'build', before_script: [], script: ['make'], after_script: [], tag_list: [], environment: null, when: 'on_success', allow_failure: false },
      { name: 'test', stage: 'test', before_script: [], script: ['make test'], after_script: [], tag_list: ['linux'], environment: null, when: 'on_success', allow_failure: false },
      { name: 'deploy', stage: 'deploy', before_script: [], script: ['./deploy'], after_script: [], tag_list: [], environment: null, when: 'manual', allow_failure: false },
    ])
  })

  it('answers the dry run errors of a pipeline that would not be created', async () => {
    const content = 'workflow:\n  rules:\n    - if: $CI_COMMIT_BRANCH == "release"\njob:\n  script: x\n'
    const res = expectStatus(await alice.api.post(lintPath(), { content, dry_run: true }), 200)
    expect(res.body).toMatchObject({ valid: false, errors: ['Pipeline filtered out by workflow rules.'] })
    const needs = 'a:\n  stage: build\n  script: x\n  only: [release]\nb:\n  script: y\n  needs: [a]\n'
    const res2 = expectStatus(await alice.api.post(lintPath(), { content: needs, dry_run: true, ref: 'main' }), 200)
    expect(res2.body.errors).toEqual([
      "'b' job needs 'a' job, but 'a' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.",
    ])
  })

  it('wants content', async () => {
    const res = await alice.api.post(lintPath(), {})
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: '400 (Bad request) "content" not given' })
  })

  it('never fails on hostile content', async () => {
    const bomb = 'a: &a ["x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e]\n'
    for (const content of [bomb, '\u0000\u0001binary', '['.repeat(5000), 'a: !reference [a, a]\n', 'job:\n  script: !reference [job, script]\n', '__proto__:\n  script: x\n']) {
      const res = await alice.api.post(lintPath(), { content })
      expect(res.status).toBe(200)
      expect(typeof res.body.valid).toBe('boolean')
    }
  })
})

describe('GET /projects/:id/ci/lint', () => {
  it("lints the project's file on the default branch", async () => {
    const res = expectStatus(await alice.api.get(lintPath(), { query: { include_jobs: true } }), 200)
    expect(res.body.valid).toBe(true)
    expect(res.body.includes.map((i: { location: string }) => i.location)).toEqual(['ci/test.yml'])
    expect(res.body.jobs.map((j: { name: string; only: unknown; environment: unknown; needs: unknown }) => [j.name, j.only, j.environment, j.needs])).toEqual([
      ['build', { refs: ['main', '/^release/'] }, null, null],
      ['test', { refs: ['branches', 'tags'] }, null, [{ name: 'build', artifacts: true, optional: false }]],
      ['deploy', null, 'production', null],
    ])
  })

  it('lints the file of an older commit', async () => {
    const res = expectStatus(await alice.api.get(lintPath(), { query: { sha: firstSha } }), 200)
    expect(res.body).toEqual({ valid: true, errors: [], warnings: [], includes: [], merged_yaml: '---\nbuild:\n  stage: build\n  script:\n  - make\n' })
  })

  it('treats a ref without the file as empty content', async () => {
    const empty = await createProject(alice.api, { name: 'Empty', path: 'empty' })
    const res = expectStatus(await alice.api.get(`/projects/${empty.id}/ci/lint`), 200)
    expect(res.body).toEqual({ valid: false, errors: ['Please provide content of .gitlab-ci.yml'], warnings: [], includes: [], merged_yaml: null })
  })

  it('dry-runs on dry_run_ref', async () => {
    const res = expectStatus(await alice.api.get(lintPath(), { query: { dry_run: true, dry_run_ref: 'main', include_jobs: true } }), 200)
    expect(res.body.jobs.map((j: { name: string }) => j.name)).toEqual(['build', 'test', 'deploy'])
  })
})

describe('who may lint', () => {
  it('hides private projects from strangers and anonymous callers', async () => {
    for (const as of [stranger.api, api(server)]) {
      const res = await as.post(lintPath(), { content: 'a:\n  script: x\n' })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ message: '404 Project Not Found' })
    }
  })

  it('refuses guests of a private project', async () => {
    const res = await guest.api.get(lintPath())
    expect(res.status).toBe(403)
  })

  it('lets anyone lint in a public project', async () => {
    const pub = await createProject(alice.api, { name: 'Public', path: 'public', visibility: 'public' })
    const res = await api(server).post(`/projects/${pub.id}/ci/lint`, { content: 'a:\n  script: x\n' })
    expect(res.status).toBe(200)
    expect(res.body.valid).toBe(true)
  })
})

describe('POST /ci/lint', () => {
  it('answers status valid, with the merged YAML when asked', async () => {
    const res = expectStatus(await alice.api.post('/ci/lint', { content: 'a:\n  script: x\n', include_merged_yaml: true }), 200)
    expect(res.body).toEqual({ status: 'valid', errors: [], warnings: [], merged_yaml: '---\na:\n  script: x\n' })
    LegacyCiLintResult.strict().parse(res.body)
  })

  it('answers status invalid with the errors', async () => {
    const res = expectStatus(await alice.api.post('/ci/lint', { content: 'a:\n  when: always\n' }), 200)
    expect(res.body).toEqual({ status: 'invalid', errors: ['jobs:a config should implement a script: or a trigger: keyword'], warnings: [] })
  })

  it('cannot include files without a project', async () => {
    const res = expectStatus(await alice.api.post('/ci/lint', { content: 'include: a.yml\n' }), 200)
    expect(res.body.errors).toEqual(['Local file `a.yml` does not exist!'])
  })

  it('needs a signed-in user', async () => {
    const res = await api(server).post('/ci/lint', { content: 'a:\n  script: x\n' })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: '401 Unauthorized' })
  })
})
