// The Deployments API (GitLab's lib/api/deployments.rb): list and read, record a deployment made outside GitLab CI and
// update its status, delete one that is neither running nor the environment's current one, and the merge requests it shipped.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { Deployment } from '../entities/environments.js'
import { MergeRequestBasic } from '../entities/merge-requests.js'
import { bool, int, isoDate, oneOf, ref, str } from '../params.js'

const Id = { id: ref() }
const OneDeployment = { id: ref(), deployment_id: int() }
export const DEPLOYMENT_STATUSES = ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const
const WRITABLE_STATUSES = ['running', 'success', 'failed', 'canceled'] as const

export const listDeployments = defineEndpoint({
  method: 'GET', path: '/projects/:id/deployments', summary: 'List project deployments', paginated: true, jobToken: true,
  params: Id,
  input: {
    order_by: oneOf(['id', 'iid', 'created_at', 'updated_at', 'finished_at']).optional(), sort: oneOf(['asc', 'desc']).optional(),
    updated_after: isoDate().optional(), updated_before: isoDate().optional(),
    finished_after: isoDate().optional(), finished_before: isoDate().optional(),
    environment: str().optional(), status: oneOf(DEPLOYMENT_STATUSES).optional(),
  },
  responses: { 200: z.array(Deployment) },
})

export const getDeployment = defineEndpoint({
  method: 'GET', path: '/projects/:id/deployments/:deployment_id', summary: 'Get a specific deployment', jobToken: true,
  params: OneDeployment, responses: { 200: Deployment },
})

export const createDeployment = defineEndpoint({
  method: 'POST', path: '/projects/:id/deployments', summary: 'Record a deployment (of an environment, created when absent)', jobToken: true,
  params: Id, input: { environment: str(), sha: str(64), ref: str(1024), tag: bool(), status: oneOf(WRITABLE_STATUSES) },
  responses: { 201: Deployment },
})

export const updateDeployment = defineEndpoint({
  method: 'PUT', path: '/projects/:id/deployments/:deployment_id', summary: 'Update the status of a deployment made through the API',
  jobToken: true, params: OneDeployment, input: { status: oneOf(WRITABLE_STATUSES) }, responses: { 200: Deployment },
})

export const deleteDeployment = defineEndpoint({
  method: 'DELETE', path: '/projects/:id/deployments/:deployment_id', summary: 'Delete a deployment that is neither running nor current',
  jobToken: true, params: OneDeployment, responses: { 204: null },
})

export const listDeploymentMergeRequests = defineEndpoint({
  method: 'GET', path: '/projects/:id/deployments/:deployment_id/merge_requests', summary: 'Merge requests shipped with a deployment',
  paginated: true, jobToken: true, params: OneDeployment, responses: { 200: z.array(MergeRequestBasic) },
})
