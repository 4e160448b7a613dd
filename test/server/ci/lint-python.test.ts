// python-gitlab 3.12 drives the lint endpoints: gl.ci_lint (the older /ci/lint) and project.ci_lint (create, get,
// validate). Skipped where Debian's python3-gitlab is not installed.
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab } from '../../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const SCRIPT = String.raw`
import json, sys
import gitlab
from gitlab.exceptions import GitlabCiLintError
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
good = "build:\n  script: [make]\n"
bad = "build:\n  stage: nowhere\n  script: [make]\n"
out = {}
r = gl.ci_lint.create({"content": good, "include_merged_yaml": True})
out["instance"] = [r.status, r.errors, r.merged_yaml]
try:
    gl.ci_lint.validate({"content": bad})
    out["instance_validate"] = "passed"
except GitlabCiLintError as e:
    out["instance_validate"] = str(e)
project = gl.projects.create({"name": "py-lint"})
project.commits.create({"branch": "master", "commit_message": "ci", "actions": [{"action": "create", "file_path": ".gitlab-ci.yml", "content": good}]})
r = project.ci_lint.create({"content": good, "include_jobs": True})
out["project"] = [r.valid, r.errors, [j["name"] for j in r.jobs]]
r = project.ci_lint.get()
out["project_get"] = [r.valid, r.merged_yaml]
try:
    project.ci_lint.validate({"content": bad})
    out["project_validate"] = "passed"
except GitlabCiLintError as e:
    out["project_validate"] = str(e)
print(json.dumps(out))
`

let server: TestServer
beforeAll(async () => { server = await startTestServer() })
afterAll(() => server.close())

describe.skipIf(!hasPythonGitlab)('python-gitlab and CI lint', () => {
  it('lints through gl.ci_lint and project.ci_lint', async () => {
    const { stdout } = await execa('/usr/bin/python3', ['-c', SCRIPT, server.url, server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    expect(JSON.parse(stdout)).toEqual({
      instance: ['valid', [], '---\nbuild:\n  script:\n  - make\n'],
      instance_validate: 'build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post',
      project: [true, [], ['build']],
      project_get: [true, '---\nbuild:\n  script:\n  - make\n'],
      project_validate: 'build job: chosen stage does not exist; available stages are .pre, build, test, deploy, .post',
    })
  })
})
