// collab wiki view <slug>: a page drawn for a terminal; its raw content when piped; the API's JSON with --json.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onPage, renderForTerminal, type WikiPage } from './shared.js'

export interface ViewOptions { project?: string; slug: string; version?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onPage(group.command('view').alias('show').description('Show a wiki page')))
    .option('--version <sha>', 'the page as it was at this commit of the wiki')
    .action((slug: string, flags: OptionValues) => rt.invoke(command, run, toOptions(slug, flags)))
}

export const toOptions = (slug: string, flags: OptionValues): ViewOptions => ({
  project: flags.project, slug, version: flags.version, json: flags.json === true,
})

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getWikiPage', { id: ref, slug: options.slug }), { query: { version: options.version } })
  if (options.json) return printRaw(deps.io, response.text)
  const page = parseJson<WikiPage>(response)
  // Piped, the content is the page's own bytes, so `collab wiki view x > x.md` round-trips with --content-file.
  deps.io.stdout.write(deps.io.stdoutIsTTY ? renderForTerminal(deps.io, page) : page.content)
}
