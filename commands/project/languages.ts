// collab project languages [project]: the languages of the default branch, by share of bytes.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, printTable } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onProject } from './shared.js'

export interface LanguagesOptions {
  project?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onProject(group.command('languages').description("Show a project's languages")))
    .action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): LanguagesOptions => ({
  project: project ?? flags.project,
  json: flags.json === true,
})

export async function run(options: LanguagesOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getProjectLanguages', { id: ref }))
  if (options.json) return printRaw(deps.io, response.text)
  const shares = Object.entries(parseJson<Record<string, number>>(response))
  await printTable(deps.io, [
    { header: 'LANGUAGE', value: ([name]) => name },
    { header: 'PERCENT', value: ([, percent]) => percent },
  ], shares)
}
