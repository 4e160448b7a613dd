// The Runners API: runners created by users, listed, changed and removed; a runner's jobs; project runners.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import { presentJob } from '../present/jobs.js'
import { presentRunner, presentRunnerDetails } from '../present/runners.js'
import { bundleJob } from '../services/ci/index.js'
import * as runners from '../services/ci/index.js'
import type { RunnerRow } from '../store/ci-runners.js'

const brief = (ctx: RequestContext, r: RunnerRow) => presentRunner(r, ctx.app.clock.now(), runners.isRunnerBusy(ctx, r))

function details(ctx: RequestContext, r: RunnerRow) {
  return presentRunnerDetails(r, ctx.app.clock.now(), runners.isRunnerBusy(ctx, r), runners.readableRunnerProjects(ctx, r), runners.canManageRunner(ctx, r))
}

const list = (ctx: RequestContext, page: { rows: RunnerRow[]; total: number }) => ({ status: 200, body: page.rows.map((r) => brief(ctx, r)), total: page.total })

export const runnerHandlers = {
  createUserRunner: (input, ctx) => {
    const { row, token } = runners.createUserRunner(ctx, input)
    return { status: 201, body: { id: row.id, token, token_expires_at: row.token_expires_at } }
  },
  listOwnedRunners: (input, ctx) => list(ctx, runners.listOwnedRunners(ctx, input)),
  listAllRunners: (input, ctx) => list(ctx, runners.listAllRunners(ctx, input)),
  getRunner: (input, ctx) => ({ status: 200, body: details(ctx, runners.readableRunner(ctx, input.id)) }),
  updateRunner: (input, ctx) => {
    const { id, ...settings } = input
    return { status: 200, body: details(ctx, runners.updateRunner(ctx, id, settings)) }
  },
  deleteRunner: (input, ctx) => {
    runners.deleteRunner(ctx, input.id)
    return { status: 204 }
  },
  listRunnerJobs: async (input, ctx) => {
    const runner = runners.manageableRunner(ctx, input.id)
    const { jobs, total } = runners.runnerJobs(ctx, runner, input.status)
    const body = []
    for (const { job, project } of jobs) body.push(presentJob(await bundleJob(ctx, project, job), ctx))
    return { status: 200, body, total }
  },
  resetRunnerAuthenticationToken: (input, ctx) =>
    ({ status: 201, body: runners.resetAuthenticationToken(ctx, runners.manageableRunner(ctx, input.id)) }),
  resetInstanceRegistrationToken: (_input, ctx) => ({ status: 201, body: runners.resetRegistrationToken(ctx, null) }),
  listProjectRunners: (input, ctx) => {
    const { id, ...filters } = input
    return list(ctx, runners.listProjectRunners(ctx, runners.runnersProject(ctx, id), filters))
  },
  enableProjectRunner: (input, ctx) =>
    ({ status: 201, body: brief(ctx, runners.enableProjectRunner(ctx, runners.runnersProject(ctx, input.id), input.runner_id)) }),
  disableProjectRunner: (input, ctx) => {
    runners.disableProjectRunner(ctx, runners.runnersProject(ctx, input.id), input.runner_id)
    return { status: 204 }
  },
  resetProjectRegistrationToken: (input, ctx) =>
    ({ status: 201, body: runners.resetRegistrationToken(ctx, runners.runnersProject(ctx, input.id).id) }),
} satisfies Handlers<typeof contract.runners>
