// collab snippet edit <snippet>: change the title, description, visibility, file name or content; with no change named
// on a terminal, $EDITOR opens on the current content.
import type { Command, OptionValues } from 'commander'
import { choice, withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { readText } from '../../src/cli/text-input.js'
import { onSnippet, snippetId, snippetTarget, VISIBILITIES, type Snippet, type SnippetScope } from './shared.js'

export interface EditOptions extends SnippetScope {
  id: number
  title?: string
  description?: string
  visibility?: string
  filename?: string
  contentFile?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onSnippet(group.command('edit').alias('update').description("Change a snippet's title, description, visibility or content")))
    .option('-t, --title <title>', 'the new title')
    .option('-d, --description <text>', 'the new description')
    .addOption(choice('-v, --visibility <level>', 'private, internal or public', VISIBILITIES))
    .option('-f, --filename <name>', 'rename the file (a snippet of one file)')
    .option('-c, --content-file <file>', 'the new content from a file, or - for stdin')
  command.action((id: string, flags: OptionValues) => rt.invoke(command, run, toOptions(id, flags)))
}

export const toOptions = (id: string, flags: OptionValues): EditOptions => ({
  project: flags.project, personal: flags.personal === true, id: snippetId(id), title: flags.title, description: flags.description,
  visibility: flags.visibility, filename: flags.filename, contentFile: flags.contentFile, json: flags.json === true,
})

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  const target = await snippetTarget(deps, options)
  let content = options.contentFile === undefined ? undefined : await readText(deps, options.contentFile)
  const nothingNamed = [options.title, options.description, options.visibility, options.filename, content].every((v) => v === undefined)
  if (nothingNamed) {
    const current = (await target.api.call(target.raw(options.id))).text
    content = await deps.prompter.editor('Content (saved when the editor closes)', '--content-file', current)
  }
  const { data, response } = await target.api.send(target.update(options.id), {
    title: options.title, description: options.description, visibility: options.visibility, file_name: options.filename, content,
  })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Updated snippet ${(data as Snippet).id} in ${target.where}`)
}
