// collab wiki edit <slug>: change a page's content, title (which moves it) or format; with nothing given on a
// terminal, $EDITOR opens on the current content.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { withContentOptions } from './create.js'
import { contentFrom, onPage } from './shared.js'

export interface EditOptions {
  project?: string
  slug: string
  title?: string
  content?: string
  contentFile?: string
  format?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onPage(withContentOptions(group
    .command('edit')
    .description('Edit a wiki page; a new title moves it (the slug follows)')
    .option('-t, --title <title>', 'a new title'))))
    .action((slug: string, flags: OptionValues) => rt.invoke(command, run, toOptions(slug, flags)))
}

export const toOptions = (slug: string, flags: OptionValues): EditOptions => ({
  project: flags.project, slug, title: flags.title, content: flags.content, contentFile: flags.contentFile, format: flags.format, json: flags.json === true,
})

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  let content = await contentFrom(deps, options.content, options.contentFile)
  if (content === undefined && options.title === undefined && options.format === undefined && !deps.io.canPrompt) {
    throw usageError('nothing to change', "pass --content-file, --content, --title or --format; see 'collab wiki edit --help'")
  }
  const { api, ref } = await deps.project(options.project)
  if (content === undefined && options.title === undefined && options.format === undefined) {
    const current = await api.get(route('getWikiPage', { id: ref, slug: options.slug }))
    content = await deps.prompter.editor('Page content (saved when the editor closes)', '--content-file', current.content)
    if (content === current.content) return status(deps.io, `No change to wiki page ${current.slug}; nothing was sent`)
  }
  const { data, response } = await api.send(route('editWikiPage', { id: ref, slug: options.slug }), {
    title: options.title, content, format: options.format,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.slug}\n`)
  status(deps.io, data.slug === options.slug ? `Updated wiki page ${data.slug} in ${ref}` : `Updated wiki page ${options.slug}, now ${data.slug}, in ${ref}`)
}
