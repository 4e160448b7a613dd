// CI/CD variables as GitLab serializes them (Entities::Ci::Variable).
import type { CiVariable } from '../../contract/entities/jobs.js'
import type { CiVariableFields } from '../store/ci-variables.js'

// Any level's row: project and group ones alike.
export const presentCiVariable = (v: CiVariableFields): CiVariable => ({
  variable_type: v.variable_type === 'file' ? 'file' : 'env_var',
  key: v.key,
  value: v.value,
  protected: v.protected === 1,
  masked: v.masked === 1,
  raw: v.raw === 1,
  environment_scope: v.environment_scope,
  description: v.description,
})
