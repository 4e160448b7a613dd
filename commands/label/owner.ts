// Whose labels or milestones a verb works on: a project's (-p, the default) or, with --group, a group's.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { ApiClient } from '../../src/client/http.js'

export const withOwner = (command: Command, things: string) =>
  withProject(withConnection(command)).option('-g, --group <group>', `a group's ${things} instead of a project's (id or path)`)

export interface OwnerOptions { project?: string; group?: string }

export interface Owner { api: ApiClient; group: boolean; id: string }

export async function ownerTarget(o: OwnerOptions, deps: Deps): Promise<Owner> {
  if (o.project !== undefined && o.group !== undefined) throw usageError('pass -p/--project or -g/--group, not both')
  if (o.group !== undefined) return { api: await deps.api(), group: true, id: o.group }
  const { api, ref } = await deps.project(o.project)
  return { api, group: false, id: ref }
}
