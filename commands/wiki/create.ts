// collab wiki create: a new page; on a terminal a missing title is asked for and missing content opens $EDITOR.
import { InvalidArgumentError, Option, type Command, type OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { projectBeforePrompt, type Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { composeText } from '../../src/cli/prompts.js'
import { route } from '../../src/client/paths.js'
import { contentFrom, FORMATS } from './shared.js'

export interface CreateOptions {
  project?: string
  title?: string
  content?: string
  contentFile?: string
  format?: string
  json: boolean
}

export const formatOption = () => new Option('-f, --format <format>', `markup of the page: ${FORMATS.join(', ')}`).argParser((v: string) => {
  if (!(FORMATS as readonly string[]).includes(v)) throw new InvalidArgumentError(`Allowed choices are ${FORMATS.join(', ')}.`)
  return v
})

/** --content, --content-file and --format, which create and edit share. */
export const withContentOptions = (command: Command) => command
  .option('-c, --content <text>', 'the page content')
  .option('-F, --content-file <file>', 'read the content from a file, or - for stdin')
  .addOption(formatOption())

export function register(group: Command, rt: Runtime): void {
  const command = withContentOptions(group
    .command('create')
    .alias('new')
    .description('Create a wiki page (a title with / makes a subpage: guides/Install)')
    .option('-t, --title <title>', 'the title (asked for on a terminal when missing)'))
  withJson(withProject(withConnection(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): CreateOptions => ({
  project: flags.project, title: flags.title, content: flags.content, contentFile: flags.contentFile, format: flags.format, json: flags.json === true,
})

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  let content = await contentFrom(deps, options.content, options.contentFile)
  const interactive = options.title === undefined || content === undefined
  const { api, ref } = interactive ? await projectBeforePrompt(deps, options.project) : await deps.project(options.project)
  const title = options.title ?? (await deps.prompter.input('Title', '--title'))
  content ??= await composeText(deps.prompter, 'Page content', 'Page content (saved when the editor closes)', '--content-file')
  const { data, response } = await api.send(route('createWikiPage', { id: ref }), { title, content, format: options.format })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${data.slug}\n`)
  status(deps.io, `Created wiki page ${data.slug} in ${ref}`)
}
