// collab snippet view <snippet>: a snippet's facts, then its content (the first file, or --file); --web prints its URL.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { timeText } from '../../src/cli/terminal.js'
import { parseJson } from '../../src/client/http.js'
import { onSnippet, snippetId, snippetTarget, type Snippet, type SnippetScope } from './shared.js'

export interface ViewOptions extends SnippetScope { id: number; file?: string; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onSnippet(group.command('view').alias('show').description("Show a snippet and its content")))
    .option('-f, --file <path>', 'show this file of the snippet (default: the first)')
    .option('-w, --web', 'print only the web URL')
  command.action((id: string, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: string, flags: OptionValues): ViewOptions => ({
  project: flags.project, personal: flags.personal === true, id: snippetId(id), file: flags.file, web: flags.web === true, json: flags.json === true,
})

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { io } = deps
  const target = await snippetTarget(deps, options)
  const response = await target.api.call(target.one(options.id))
  if (options.json) return printRaw(io, response.text)
  const s = parseJson<Snippet>(response)
  if (options.web) return void io.stdout.write(`${s.web_url}\n`)
  const content = (await target.api.call(target.raw(options.id, options.file))).text
  printFields(io, [
    ['id', s.id],
    ['title', s.title],
    ['description', s.description],
    ['visibility', s.visibility],
    ['author', s.author.username],
    ['files', s.files.map((f) => f.path).join(', ') || s.file_name],
    ['created_at', timeText(io, s.created_at)],
    ['updated_at', timeText(io, s.updated_at)],
    ['web_url', s.web_url],
  ], content)
}
