// collab variable delete <key>: delete a CI/CD variable (the one of --scope when several share the key).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { onVariable, ownerOf, scopeFilter, variableRoute, variableTarget, type OwnerOptions } from './shared.js'

export interface DeleteOptions extends OwnerOptions { key: string; scope?: string }

export function register(group: Command, rt: Runtime): void {
  const command = onVariable(group.command('delete').alias('rm').description('Delete a CI/CD variable'))
  command.action((key: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, flags)))
}

export const toOptions = (key: string, flags: OptionValues): DeleteOptions => ({ ...ownerOf(flags), key, scope: flags.scope })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const target = await variableTarget(options, deps, options.scope)
  await target.api.call(variableRoute(target, 'delete', options.key), { query: scopeFilter(options.scope) })
  status(deps.io, `Deleted variable ${options.key} in ${target.where}`)
}
