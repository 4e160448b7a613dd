// CI/CD variables as GitLab serializes them (Entities::Ci::Variable).
import type { CiVariable } from '../../contract/entities/jobs.js'
import type { CiVariableRow } from '../store/ci-variables.js'

export const presentCiVariable = (v: CiVariableRow): CiVariable => ({
  variable_type: v.variable_type === 'file' ? 'file' : 'env_var',
  key: v.key,
  value: v.value,
  protected: v.protected === 1,
  masked: v.masked === 1,
  raw: v.raw === 1,
  environment_scope: v.environment_scope,
  description: v.description,
})
