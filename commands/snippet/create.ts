// collab snippet create [file...]: a snippet from files, or from stdin (`-`, or nothing with a pipe), like gh gist create.
import { basename } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { choice, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { readText } from '../../src/cli/text-input.js'
import { snippetTarget, VISIBILITIES, withScope, type Snippet, type SnippetScope } from './shared.js'

export interface CreateOptions extends SnippetScope {
  files: string[]
  title?: string
  description?: string
  visibility?: string
  /** The file name of content read from stdin. */
  filename?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('create')
    .alias('new')
    .description('Create a snippet from files, or from stdin (- or a pipe)')
    .argument('[file...]', 'files to put in the snippet; - reads stdin')
    .option('-t, --title <title>', 'the title (default: the first file name)')
    .option('-d, --description <text>', 'the description')
    .addOption(choice('-v, --visibility <level>', "private (the default for a project's snippet), internal or public", VISIBILITIES))
    .option('-f, --filename <name>', 'the file name of content read from stdin')
  withJson(withScope(command)).action((files: string[], flags: OptionValues) => rt.invoke(command, run, toOptions(files, flags)))
}

export const toOptions = (files: string[], flags: OptionValues): CreateOptions => ({
  project: flags.project, personal: flags.personal === true, files, title: flags.title, description: flags.description,
  visibility: flags.visibility, filename: flags.filename, json: flags.json === true,
})

/** Each file's name and text; stdin (`-` or no files) is named by --filename, else `snippetfile1.txt`, as GitLab does. */
async function readFiles(deps: Deps, options: CreateOptions): Promise<{ path: string; content: string }[]> {
  const names = options.files.length ? options.files : ['-']
  if (names.filter((f) => f === '-').length > 1) throw usageError('stdin (-) can be read only once')
  if (names.includes('-') && options.files.length === 0 && deps.io.canPrompt) {
    throw usageError('no files given and nothing piped', "name files, or pipe the content: 'collab snippet create - < file'")
  }
  return Promise.all(names.map(async (name) => ({
    path: name === '-' ? options.filename ?? 'snippetfile1.txt' : basename(name),
    content: await readText(deps, name),
  })))
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const files = await readFiles(deps, options)
  const target = await snippetTarget(deps, options)
  const content = files.length === 1 ? { file_name: files[0].path, content: files[0].content } : { files: files.map((f) => ({ file_path: f.path, content: f.content })) }
  const { data, response } = await target.api.send(target.create(), {
    title: options.title ?? files[0].path,
    description: options.description,
    // A project's snippet needs a visibility; a personal one left without takes the instance's default.
    visibility: options.visibility ?? (options.personal ? undefined : 'private'),
    ...content,
  })
  const snippet = data as Snippet
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${snippet.web_url}\n`)
  status(deps.io, `Created snippet ${snippet.id} in ${target.where}`)
}
