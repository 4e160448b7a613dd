// collab browse [path]: the project, an issue (`12`), a merge request (`!3`) or a file (`src/app.ts:10`) in the web
// browser, as gh browse does; with --no-browser, only its URL. URLs start from the project's web_url, so they are
// right for GitLab and collab serve alike.
import { stat } from 'node:fs/promises'
import { dirname, join, posix, relative, resolve, sep } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { OPENING_HELP, openInBrowser } from '../../src/cli/browser.js'
import { positiveInt, withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'

export const summary = 'Open the project, an issue, a merge request or a file in the web browser'

export interface BrowseOptions { path?: string; branch?: string; project?: string; browser: boolean; mr?: number }

export function register(command: Command, rt: Runtime): void {
  command
    .argument('[path]', 'an issue number (12), a merge request (!3 quoted, or mr3), or a file or directory, with :LINE or :START-END')
    .option('-b, --branch <branch>', 'the branch (or tag, or commit) to show a file on (default: the default branch)')
    .option('-m, --mr <iid>', "a merge request (bash reads an unquoted !3 as history: quote it, '!3', or use -m 3 or mr3)", positiveInt)
    .option('-n, --no-browser', 'print the URL instead of opening it')
    .addHelpText('after', `
Examples:
  collab browse                      the project's page
  collab browse 12                   issue 12
  collab browse '!3'                 merge request 3 (also mr3, or -m 3; unquoted, bash reads !3 as its history)
  collab browse src/app.ts:10        the file on the default branch, at line 10
  collab browse docs/ -b stable      a directory on the branch stable
A file path is taken from the current directory when it lies in a git work tree, else from the repository's root.

Opening a page:
${OPENING_HELP}`)
  withProject(withConnection(command)).action((path: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(path, flags)))
}

export const toOptions = (path: string | undefined, flags: OptionValues): BrowseOptions => ({
  path, branch: flags.branch, project: flags.project, browser: flags.browser !== false, mr: flags.mr,
})

/** `!3`, and forms bash's history expansion leaves alone: `mr3`, `mr/3`, `mr:3`, `mr-3`. */
const MR_FORMS = /^(?:!|mr[/:-]?)(\d+)$/i

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/')

/** The first directory at or above `cwd` holding `.git`: file paths are relative to the work tree's root. */
async function workTreeRoot(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (await stat(join(dir, '.git')).then(() => true, () => false)) return dir
    if (dirname(dir) === dir) return undefined
  }
}

interface FileTarget { path: string; line?: string; directory: boolean }

/** `dir/file.ts:10-20` to the path from the repository's root, the line anchor and whether it names a directory. */
async function fileTarget(cwd: string, given: string): Promise<FileTarget> {
  const [, rawPath, from, to] = /^(.*?)(?::(\d+)(?:-(\d+))?)?$/.exec(given)!
  const root = await workTreeRoot(cwd)
  const full = resolve(cwd, rawPath)
  const path = root ? relative(root, full).split(sep).join('/') : posix.normalize(rawPath).replace(/^\/+|\/+$|^\.$/g, '')
  if (path.startsWith('..')) throw usageError(`${given} is outside the repository`)
  const local = root ? await stat(full).catch(() => undefined) : undefined
  return { path, line: from && (to ? `L${from}-${to}` : `L${from}`), directory: rawPath.endsWith('/') || local?.isDirectory() === true }
}

export async function browseUrl(options: BrowseOptions, deps: Deps): Promise<string> {
  const { api, ref } = await deps.project(options.project, { anonymous: true })
  const project = parseJson<{ web_url: string; default_branch: string | null }>(await api.call(route('getProject', { id: ref })))
  const given = options.path?.trim() ?? ''
  if (options.mr !== undefined) return `${project.web_url}/-/merge_requests/${options.mr}`
  if (given === '') return project.web_url
  if (/^#?\d+$/.test(given)) return `${project.web_url}/-/issues/${given.replace('#', '')}`
  const mr = MR_FORMS.exec(given)
  if (mr) return `${project.web_url}/-/merge_requests/${mr[1]}`
  const file = await fileTarget(deps.io.cwd, given)
  const branch = encodePath(options.branch ?? project.default_branch ?? 'main')
  if (file.path === '') return `${project.web_url}/-/tree/${branch}`
  return `${project.web_url}/-/${file.directory ? 'tree' : 'blob'}/${branch}/${encodePath(file.path)}${file.line && !file.directory ? `#${file.line}` : ''}`
}

export async function run(options: BrowseOptions, deps: Deps): Promise<void> {
  const url = await browseUrl(options, deps)
  if (!options.browser) return void deps.io.stdout.write(`${url}\n`)
  await openInBrowser(deps.io, url)
}
