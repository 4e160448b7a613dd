// collab project view [project]: one project's main facts; its page in the browser with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onProject, type Project } from './shared.js'

export interface ViewOptions {
  project?: string
  web: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onProject(group.command('view').description('Show a project')))
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
    .action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): ViewOptions => ({
  project: project ?? flags.project,
  web: flags.web === true,
  json: flags.json === true,
})

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getProject', { id: ref }))
  if (options.json) return printRaw(deps.io, response.text)
  const p = parseJson<Project>(response)
  if (options.web) return openInBrowser(deps.io, p.web_url)
  printFields(deps.io, [
    ['id', p.id],
    ['path', p.path_with_namespace],
    ['name', p.name],
    ['description', p.description],
    ['visibility', p.visibility],
    ['default_branch', p.default_branch],
    ['archived', p.archived],
    ['forked_from', p.forked_from_project?.path_with_namespace],
    ['stars', p.star_count],
    ['forks', p.forks_count],
    ['created_at', p.created_at],
    ['web_url', p.web_url],
    ['http_url', p.http_url_to_repo],
    ['ssh_url', p.ssh_url_to_repo],
  ])
}
