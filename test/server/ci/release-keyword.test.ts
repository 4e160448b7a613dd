// The `release:` keyword: CI lint answers a bad block in GitLab's words, and a job with one creates its release
// through a `release` step that the real runner runs after the script (`collab release create` with the job token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, jobNamed, runPipeline, startCiServer, waitForFinished } from '../../helpers/ci.js'
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
