// The `release:` keyword: CI lint answers a bad block in GitLab's words, and a job with one creates its release
// through a `release` step that the real runner runs after the script (`collab release create` with the job token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, jobNamed, startCiServer, waitForFinished } from '../../helpers/ci.js'
import { commit, create } from '../../helpers/repository.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ runner: true })
}, 60_000)
afterAll(() => server?.close())

describe('CI lint of release:', () => {
  const job = (release: string) => `release_job:\n  script: [echo]\n  release:\n${release.replace(/^/gm, '    ')}\n`

  it('reports each bad block as GitLab does', async () => {
    const { project, root } = await ciProject(server, 'release-lint', null, { 'README.md': 'lint\n' })
    const lint = async (yaml: string) => expectStatus(await root.post(`/projects/${project.id}/ci/lint`, { content: yaml }), 200).body.errors
    expect(await lint(job('name: only a name'))).toEqual([
      "jobs:release_job:release tag name can't be blank",
      "jobs:release_job:release description can't be blank",
    ])
    expect(await lint(job('tag_name: v1\ndescription: d\nfoo: 1\nmilestones: {a: 1}\nreleased_at: yesterday\nref: "a..b"'))).toEqual([
      'jobs:release_job:release config contains unknown keys: foo',
      'jobs:release_job:release ref must be a valid ref',
      'jobs:release_job:release released at must be a valid datetime',
      'jobs:release_job:release milestones should be an array of strings or a string',
    ])
    expect(await lint(job('tag_name: v1\ndescription: d\nassets: {links: []}'))).toEqual(["jobs:release_job:release:assets links can't be blank"])
    expect(await lint(job('tag_name: v1\ndescription: d\nassets:\n  links:\n    - {url: "ftp:x", filepath: "bad path", link_type: zip, size: 1}'))).toEqual([
      'jobs:release_job:release:assets:links:link config contains unknown keys: size',
      "jobs:release_job:release:assets:links:link name can't be blank",
      'jobs:release_job:release:assets:links:link url must be a valid URL',
      'jobs:release_job:release:assets:links:link filepath is invalid',
      'jobs:release_job:release:assets:links:link link type should be one of: other, runbook, image, package',
    ])
    expect(await lint('release_job:\n  script: [echo]\n  release: v1\n')).toEqual(['jobs:release_job:release config should be a hash'])
    const valid = await root.post(`/projects/${project.id}/ci/lint`, {
      content: job('tag_name: $CI_COMMIT_SHORT_SHA\ndescription: ./CHANGELOG.md\nmilestones: m1\nreleased_at: "2026-01-02T03:04:05Z"\nassets:\n  links:\n    - {name: bin, url: "$CI_SERVER_URL/x", filepath: /bin/tool, link_type: package}'),
    })
    expect(expectStatus(valid, 200).body).toMatchObject({ valid: true, errors: [] })
  })
})

describe('a job with release:', () => {
  const CI = `stages: [build, release]
variables:
  TITLE: Release
build:
  stage: build
  script: [echo built]
fails:
  stage: build
  allow_failure: true
  script: [exit 3]
  release: {tag_name: never, description: never}
release_job:
  stage: release
  script: [echo releasing]
  release:
    tag_name: v$CI_PIPELINE_IID
    name: '$TITLE of $CI_COMMIT_SHORT_SHA'
    description: ./CHANGELOG.md
    ref: $CI_COMMIT_SHA
    tag_message: 'Tagged by "CI"'
    milestones: [m1]
    assets:
      links:
        - name: 'Build \`log\`'
          url: '$CI_PROJECT_URL/-/jobs/$CI_JOB_ID'
          filepath: /log
          link_type: runbook
`

  it('creates the release after the script with the job token, its values expanded by the job', async () => {
    const { project, root } = await ciProject(server, 'release-ci', null, { 'README.md': 'ci\n' })
    expectStatus(await root.post(`/projects/${project.id}/milestones`, { title: 'm1' }), 201)
    const sha = (await commit(root, project.id, {
      commit_message: 'CI', actions: [create('.gitlab-ci.yml', CI), create('CHANGELOG.md', '## Changes\n\n- `release:` works\n')],
    })).id as string
    await server.app.tasks.idle()
    const pipelines = expectStatus(await root.get(`/projects/${project.id}/pipelines`), 200).body
    const pipeline = await waitForFinished(server, pipelines[0].id, 60_000)
    const job = jobNamed(server, pipeline.id, 'release_job')
    const trace = expectStatus(await root.get(`/projects/${project.id}/jobs/${job.id}/trace`), 200).text
    expect(job.status, trace).toBe('success')
    expect(trace).toContain('Executing "step_release" stage of the job script')
    expect(trace).toContain('$ collab release create "v$CI_PIPELINE_IID" --assets-links')
    expect(jobNamed(server, pipeline.id, 'fails').status).toBe('failed')

    const tag = `v${pipelines[0].iid}`
    const release = expectStatus(await root.get(`/projects/${project.id}/releases/${tag}`), 200).body
    expect(release).toMatchObject({
      tag_name: tag, name: `Release of ${sha.slice(0, 8)}`, description: '## Changes\n\n- `release:` works\n',
      author: { username: 'root' }, commit: { id: sha },
    })
    // The job passes --no-close-milestone, as GitLab's release step does.
    expect(release.milestones.map((m: { title: string; state: string }) => [m.title, m.state])).toEqual([['m1', 'active']])
    expect(release.assets.links).toEqual([expect.objectContaining({
      name: 'Build `log`', url: `${project.web_url}/-/jobs/${job.id}`, link_type: 'runbook',
      direct_asset_url: `${project.web_url}/-/releases/${tag}/downloads/log`,
    })])
    expect(expectStatus(await root.get(`/projects/${project.id}/repository/tags/${tag}`), 200).body).toMatchObject({ message: 'Tagged by "CI"', target: expect.any(String) })
    expect((await root.get(`/projects/${project.id}/releases/never`)).status).toBe(404)
  }, 90_000)
})
