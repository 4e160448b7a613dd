// Environments and deployments: the environments and deployments APIs.
import type { contract } from '../../contract/index.js'
import type { Handlers } from '../http/mount.js'
import { presentDeployment, presentEnvironment } from '../present/environments.js'
import { presentMergeRequestBasic } from '../present/merge-requests.js'
import * as deployments from '../services/ci/index.js'
import * as environments from '../services/ci/index.js'
import { bundles as mergeRequestBundles } from '../services/merge-requests/index.js'
import { findVisibleProject } from '../services/projects/index.js'

export const environmentHandlers = {
  listEnvironments: (input, ctx) => {
    const { rows, total } = environments.listEnvironments(ctx, findVisibleProject(ctx, input.id), input)
    return { status: 200, body: rows.map((e) => presentEnvironment(e, ctx)), total }
  },
  getEnvironment: async (input, ctx) => {
    const project = findVisibleProject(ctx, input.id)
    const env = environments.getEnvironment(ctx, project, input.environment_id)
    const lastDeployment = await deployments.lastDeploymentOf(ctx, project, env.id)
    return { status: 200, body: presentEnvironment(env, ctx, { project, lastDeployment }) }
  },
  createEnvironment: (input, ctx) => ({ status: 201, body: presentEnvironment(environments.createEnvironment(ctx, findVisibleProject(ctx, input.id), input), ctx) }),
  updateEnvironment: (input, ctx) => ({
    status: 200, body: presentEnvironment(environments.updateEnvironment(ctx, findVisibleProject(ctx, input.id), input.environment_id, input), ctx),
  }),
  deleteEnvironment: (input, ctx) => {
    environments.deleteEnvironment(ctx, findVisibleProject(ctx, input.id), input.environment_id)
    return { status: 204 }
  },
  stopEnvironment: (input, ctx) => ({
    status: 200, body: presentEnvironment(environments.stopEnvironment(ctx, findVisibleProject(ctx, input.id), input.environment_id, input.force), ctx),
  }),
  stopStaleEnvironments: (input, ctx) => ({ status: 200, body: environments.stopStaleEnvironments(ctx, findVisibleProject(ctx, input.id), input.before) }),
} satisfies Handlers<typeof contract.environments>

export const deploymentHandlers = {
  listDeployments: async (input, ctx) => {
    const project = findVisibleProject(ctx, input.id)
    const { rows, total } = deployments.listDeployments(ctx, project, input)
    return { status: 200, body: (await deployments.bundleDeployments(ctx, project, rows)).map((b) => presentDeployment(b, ctx)), total }
  },
  getDeployment: async (input, ctx) => {
    const project = findVisibleProject(ctx, input.id)
    const [b] = await deployments.bundleDeployments(ctx, project, [deployments.getDeployment(ctx, project, input.deployment_id)])
    return { status: 200, body: presentDeployment(b, ctx) }
  },
  createDeployment: async (input, ctx) => {
    const project = findVisibleProject(ctx, input.id)
    const [b] = await deployments.bundleDeployments(ctx, project, [await deployments.createDeployment(ctx, project, input)])
    return { status: 201, body: presentDeployment(b, ctx) }
  },
  updateDeployment: async (input, ctx) => {
    const project = findVisibleProject(ctx, input.id)
    const [b] = await deployments.bundleDeployments(ctx, project, [deployments.updateDeployment(ctx, project, input.deployment_id, input.status)])
    return { status: 200, body: presentDeployment(b, ctx) }
  },
  deleteDeployment: (input, ctx) => {
    deployments.deleteDeployment(ctx, findVisibleProject(ctx, input.id), input.deployment_id)
    return { status: 204 }
  },
  listDeploymentMergeRequests: (input, ctx) => {
    const { rows, total } = deployments.deploymentMergeRequests(ctx, findVisibleProject(ctx, input.id), input.deployment_id)
    return { status: 200, body: mergeRequestBundles(ctx, rows).map((b) => presentMergeRequestBasic(b, ctx)), total }
  },
} satisfies Handlers<typeof contract.deployments>
