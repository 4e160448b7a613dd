// collab variable delete <key>: delete a CI/CD variable (the one of --scope when several share the key).
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onVariable, scopeFilter } from './shared.js'

export interface DeleteOptions { project?: string; key: string; scope?: string }

export function register(group: Command, rt: Runtime): void {
  const command = onVariable(group.command('delete').alias('rm').description('Delete a CI/CD variable'))
  command.action((key: string, flags: OptionValues) => rt.invoke(command, run, toOptions(key, flags)))
}

export const toOptions = (key: string, flags: OptionValues): DeleteOptions => ({ project: flags.project, key, scope: flags.scope })

export async function run(options: DeleteOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  await api.call(route('deleteProjectVariable', { id: ref, key: options.key }), { query: scopeFilter(options.scope) })
  status(deps.io, `Deleted variable ${options.key} in ${ref}`)
}
