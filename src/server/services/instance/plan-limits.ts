// Plan limits (GitLab's plan_limits of the one 'default' plan): read by uploads, changed by administrators.
import { validationFailed } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import * as store from '../../store/packages.js'

/** The largest package file an upload may write, in bytes; GitLab reads a limit of 0 as none. */
export function genericPackagesMaxFileSize(app: AppDeps): number {
  const limit = store.findPlanLimits(app.db, 'default')?.generic_packages_max_file_size ?? 0
  return limit > 0 ? limit : Number.POSITIVE_INFINITY
}

const limitsOf = (ctx: RequestContext, plan: string) => {
  const row = store.findPlanLimits(ctx.app.db, plan)!
  return { generic_packages_max_file_size: row.generic_packages_max_file_size }
}

export const planLimits = (ctx: RequestContext, plan = 'default') => limitsOf(ctx, plan)

/** `PlanLimits#update`: the model's numericality validation answers 400 with its message. */
export function updatePlanLimits(ctx: RequestContext, input: { plan_name: string; generic_packages_max_file_size?: number }) {
  const size = input.generic_packages_max_file_size
  if (size !== undefined) {
    if (size < 0) throw validationFailed({ generic_packages_max_file_size: ['must be greater than or equal to 0'] })
    store.updatePlanLimits(ctx.app.db, input.plan_name, { generic_packages_max_file_size: size })
  }
  return limitsOf(ctx, input.plan_name)
}
