// CI lint: the project forms (content, or the project's own file) and the older instance-wide /ci/lint.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { lintInstanceContent, lintProjectConfig, lintProjectContent } from '../services/ci/index.js'

export const ciLintHandlers = {
  lintProjectContent: async (input, ctx) => ({
    status: 200,
    body: await lintProjectContent(ctx, input.id, input.content, { dryRun: input.dry_run, includeJobs: input.include_jobs, ref: input.ref }),
  }),
  lintProjectConfig: async (input, ctx) => ({
    status: 200,
    body: await lintProjectConfig(ctx, input.id, {
      sha: input.sha, ref: input.ref, dryRun: input.dry_run, includeJobs: input.include_jobs, dryRunRef: input.dry_run_ref,
    }),
  }),
  lintContent: async (input, ctx) => ({
    status: 200,
    body: await lintInstanceContent(ctx, input.content, { includeMergedYaml: input.include_merged_yaml, includeJobs: input.include_jobs }),
  }),
} satisfies Handlers<typeof contract.ciLint>
