// Runners as the Runners API shows them (lib/api/entities/ci/runner.rb, runner_details.rb, runner_registration_details.rb).
import { z } from 'zod'

export const RunnerType = z.enum(['instance_type', 'group_type', 'project_type'])

export const Runner = z.object({
  id: z.number().int(),
  description: z.string(),
  ip_address: z.string().nullable(),
  active: z.boolean(),
  paused: z.boolean(),
  is_shared: z.boolean(),
  runner_type: RunnerType,
  name: z.string().nullable(),
  online: z.boolean(),
  created_at: z.string(),
  status: z.enum(['online', 'offline', 'stale', 'never_contacted']),
  job_execution_status: z.enum(['active', 'idle']),
})

const ProjectOfRunner = z.object({
  id: z.number().int(), name: z.string(), name_with_namespace: z.string(), path: z.string(), path_with_namespace: z.string(),
})

export const RunnerDetails = Runner.extend({
  tag_list: z.array(z.string()),
  run_untagged: z.boolean(),
  locked: z.boolean(),
  maximum_timeout: z.number().int().nullable(),
  access_level: z.enum(['not_protected', 'ref_protected']),
  version: z.string().nullable(),
  revision: z.string().nullable(),
  platform: z.string().nullable(),
  architecture: z.string().nullable(),
  contacted_at: z.string().nullable(),
  maintenance_note: z.string().nullable(),
  projects: z.array(ProjectOfRunner),
  groups: z.array(z.object({ id: z.number().int(), name: z.string(), web_url: z.string() })),
})

/** The answer of a runner's creation or registration: the authentication token, shown this once. */
export const RunnerRegistration = z.object({ id: z.number().int(), token: z.string(), token_expires_at: z.string().nullable() })

export const TokenResult = z.object({ token: z.string(), token_expires_at: z.string().nullable() })
