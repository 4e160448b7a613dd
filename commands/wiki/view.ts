// collab wiki view <slug>: a page drawn for a terminal; its raw content when piped; the API's JSON with --json; its
// page in the browser with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { onPage, renderForTerminal, type WikiPage } from './shared.js'

export interface ViewOptions { project?: string; slug: string; version?: string; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onPage(group.command('view').alias('show').description('Show a wiki page')))
    .option('--version <sha>', 'the page as it was at this commit of the wiki')
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
    .action((slug: string, flags: OptionValues) => rt.invoke(command, run, toOptions(slug, flags)))
}

export const toOptions = (slug: string, flags: OptionValues): ViewOptions => ({
  project: flags.project, slug, version: flags.version, web: flags.web === true, json: flags.json === true,
})

/** Wiki pages carry no web_url in the API: GitLab's page path under the project's own web_url. */
async function wikiPageUrl(api: ApiClient, ref: string, slug: string): Promise<string> {
  const project = parseJson<{ web_url: string }>(await api.call(route('getProject', { id: ref })))
  return `${project.web_url}/-/wikis/${slug.split('/').map(encodeURIComponent).join('/')}`
}

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route('getWikiPage', { id: ref, slug: options.slug }), { query: { version: options.version } })
  if (options.json) return printRaw(deps.io, response.text)
  const page = parseJson<WikiPage>(response)
  if (options.web) return openInBrowser(deps.io, await wikiPageUrl(api, ref, page.slug))
  // Piped, the content is the page's own bytes, so `collab wiki view x > x.md` round-trips with --content-file.
  deps.io.stdout.write(deps.io.stdoutIsTTY ? renderForTerminal(deps.io, page) : page.content)
}
