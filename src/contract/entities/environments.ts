// Environment and deployment shapes (GitLab's Entities::EnvironmentBasic, Environment, Deployment).
import { z } from 'zod'
import { Job } from './jobs.js'
import { ProjectSimple } from './projects.js'
import { UserBasic } from './users.js'

const nstr = z.string().nullable()

export const EnvironmentBasic = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  external_url: nstr,
  created_at: z.string(),
  updated_at: z.string(),
})
export type EnvironmentBasic = z.infer<typeof EnvironmentBasic>

export const Deployment = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  ref: z.string(),
  sha: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  user: UserBasic.nullable(),
  environment: EnvironmentBasic,
  deployable: Job.nullable(),
  status: z.enum(['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked']),
})
export type Deployment = z.infer<typeof Deployment>

export const Environment = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  external_url: nstr,
  state: z.enum(['available', 'stopping', 'stopped']),
  tier: z.enum(['production', 'staging', 'testing', 'development', 'other']),
  created_at: z.string(),
  updated_at: z.string(),
  auto_stop_at: nstr,
  /** On a single environment's read only. */
  project: ProjectSimple.optional(),
  last_deployment: Deployment.nullable().optional(),
})
export type Environment = z.infer<typeof Environment>
