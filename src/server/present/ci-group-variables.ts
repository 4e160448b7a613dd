// Instance CI/CD variables as GitLab serializes them: Entities::Ci::Variable without environment_scope.
import type { z } from 'zod'
import type { InstanceVariable } from '../../contract/endpoints/ci-group-variables.js'
import type { InstanceVariableRow } from '../store/ci-group-variables.js'
import { presentCiVariable } from './ci-variables.js'

export function presentInstanceVariable(v: InstanceVariableRow): z.infer<typeof InstanceVariable> {
  const { environment_scope: _scope, ...rest } = presentCiVariable({ ...v, environment_scope: '*' })
  return rest
}
