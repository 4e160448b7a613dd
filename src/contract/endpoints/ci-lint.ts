// CI lint (GitLab 17 `lib/api/ci/lint.rb`): a config sent as content or the project's own .gitlab-ci.yml, checked
// statically or by a dry run of pipeline creation; and the older instance-wide `POST /ci/lint`.
import { defineEndpoint } from '../define.js'
import { CiLintResult, LegacyCiLintResult } from '../entities/ci-lint.js'
import { bool, ref, str, text } from '../params.js'

export const lintProjectContent = defineEndpoint({
  method: 'POST', path: '/projects/:id/ci/lint', summary: "Validate a CI/CD configuration in a project's context",
  auth: 'optional',
  params: { id: ref() },
  input: { content: text(), dry_run: bool().optional(), include_jobs: bool().optional(), ref: str(1024).optional() },
  responses: { 200: CiLintResult },
})

export const lintProjectConfig = defineEndpoint({
  method: 'GET', path: '/projects/:id/ci/lint', summary: "Validate a project's .gitlab-ci.yml at a commit (the default branch by default)",
  auth: 'optional',
  params: { id: ref() },
  input: {
    sha: str(1024).optional(), ref: str(1024).optional(), dry_run: bool().optional(), include_jobs: bool().optional(),
    dry_run_ref: str(1024).optional(),
  },
  responses: { 200: CiLintResult },
})

export const lintContent = defineEndpoint({
  method: 'POST', path: '/ci/lint', summary: 'Validate a CI/CD configuration (the instance-wide form GitLab had before 16.0)',
  input: { content: text(), include_merged_yaml: bool().optional(), include_jobs: bool().optional() },
  responses: { 200: LegacyCiLintResult },
})
