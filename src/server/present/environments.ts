// Environments and deployments as GitLab serializes them (Entities::EnvironmentBasic, Environment, Deployment).
import type { Deployment, Environment, EnvironmentBasic } from '../../contract/entities/environments.js'
import type { RequestContext } from '../context.js'
import type { DeploymentRow, EnvironmentRow } from '../store/environments.js'
import type { ProjectView } from '../store/projects.js'
import type { UserRow } from '../store/users.js'
import { presentJob, type JobBundle } from './jobs.js'
import { presentProjectSimple } from './projects.js'
import { presentUserBasic } from './users.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

/** What a deployment's JSON is made of, gathered by the service. */
export interface DeploymentBundle {
  deployment: DeploymentRow
  environment: EnvironmentRow
  user: UserRow | null
  /** The job that deploys, with its pipeline; null for a deployment recorded through the API. */
  deployable: JobBundle | null
}

export const presentEnvironmentBasic = (e: EnvironmentRow): EnvironmentBasic => ({
  id: e.id, name: e.name, slug: e.slug, external_url: e.external_url, created_at: e.created_at, updated_at: e.updated_at,
})

export const presentDeployment = (b: DeploymentBundle, ctx: Urls): Deployment => ({
  id: b.deployment.id,
  iid: b.deployment.iid,
  ref: b.deployment.ref,
  sha: b.deployment.sha,
  created_at: b.deployment.created_at,
  updated_at: b.deployment.updated_at,
  user: b.user ? presentUserBasic(b.user, ctx) : null,
  environment: presentEnvironmentBasic(b.environment),
  deployable: b.deployable ? presentJob(b.deployable, ctx) : null,
  status: b.deployment.status as Deployment['status'],
})

/** The list's form; a single read adds the project and the last successful deployment. */
export function presentEnvironment(e: EnvironmentRow, ctx: Urls, single?: { project: ProjectView; lastDeployment: DeploymentBundle | null }): Environment {
  const out: Environment = {
    id: e.id, name: e.name, slug: e.slug, external_url: e.external_url, state: e.state, tier: e.tier as Environment['tier'],
    created_at: e.created_at, updated_at: e.updated_at, auto_stop_at: e.auto_stop_at,
  }
  if (single) {
    out.project = presentProjectSimple(single.project, ctx)
    out.last_deployment = single.lastDeployment ? presentDeployment(single.lastDeployment, ctx) : null
  }
  return out
}
