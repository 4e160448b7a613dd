// star/unstar and archive/unarchive: a POST to /projects/:id/<action> that may answer 304 when nothing changes.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onProject } from './shared.js'

export interface ToggleOptions {
  project?: string
  json: boolean
}

export interface Toggle {
  action: 'star' | 'unstar' | 'archive' | 'unarchive'
  description: string
  /** The status line: `Starred group/project`. */
  done: string
  /** The status line for 304 (GitLab's answer to starring a starred project). */
  unchanged?: string
}

export function registerToggle(group: Command, rt: Runtime, toggle: Toggle): void {
  const command = withJson(onProject(group.command(toggle.action).description(toggle.description)))
  command.action((project: string | undefined, flags: OptionValues) =>
    rt.invoke(command, (options: ToggleOptions, deps: Deps) => runToggle(toggle, options, deps), toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): ToggleOptions => ({
  project: project ?? flags.project,
  json: flags.json === true,
})

const ENDPOINTS = { star: 'starProject', unstar: 'unstarProject', archive: 'archiveProject', unarchive: 'unarchiveProject' } as const

export async function runToggle(toggle: Toggle, options: ToggleOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route(ENDPOINTS[toggle.action], { id: ref }))
  reportWrite(deps.io, options.json, response, `${response.status === 304 && toggle.unchanged ? toggle.unchanged : toggle.done} ${ref}`)
}
