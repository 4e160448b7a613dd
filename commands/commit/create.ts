// collab commit create: one commit of file actions (create, update, delete, move, chmod) on a branch, without a clone.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import { projectBeforePrompt, type Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { orderedActionParsers, readActionsFile, toAction, type ActionFlag } from './actions.js'
import { onRepository } from './shared.js'

export interface CreateOptions {
  project?: string
  branch: string
  message?: string
  startBranch?: string
  startSha?: string
  /** The action flags in the order given. */
  actions: ActionFlag[]
  /** A JSON file (or `-`) of actions in the API's format; they come before the flags' actions. */
  actionsFile?: string
  authorName?: string
  authorEmail?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const { parser } = orderedActionParsers()
  const command = group
    .command('create')
    .description('Create a commit from local files, without a clone')
    .requiredOption('-b, --branch <branch>', 'the branch to commit to (created from --start-branch when it does not exist)')
    .option('-m, --message <message>', 'the commit message')
    .option('--start-branch <branch>', 'create --branch from this branch')
    .option('--start-sha <sha>', 'create --branch from this commit')
    .option('--create <path=file>', 'add a file with the content of a local file (repeatable; path alone: the same local path)', parser('create'))
    .option('--update <path=file>', 'replace a file with the content of a local file (repeatable)', parser('update'))
    .option('--delete <path>', 'delete a file (repeatable)', parser('delete'))
    .option('--move <old:new>', 'move or rename a file (repeatable)', parser('move'))
    .option('--chmod <path=+x|-x>', 'set or clear the executable bit (repeatable)', parser('chmod'))
    .option('--actions-file <file>', 'actions as JSON in the API\'s format, from a file or - for stdin (applied before the flags\' actions)')
    .option('--author-name <name>', 'author name (default: yours)')
    .option('--author-email <email>', 'author email (default: yours)')
  withJson(onRepository(command)).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): CreateOptions => ({
  project: flags.project,
  branch: flags.branch,
  message: flags.message,
  startBranch: flags.startBranch,
  startSha: flags.startSha,
  // Every action flag holds the same ordered list (see orderedActionParsers).
  actions: [...(flags.create ?? flags.update ?? flags.delete ?? flags.move ?? flags.chmod ?? [])],
  actionsFile: flags.actionsFile,
  authorName: flags.authorName,
  authorEmail: flags.authorEmail,
  json: flags.json === true,
})

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  if (options.actions.length === 0 && options.actionsFile === undefined) {
    throw usageError('nothing to commit', 'pass --create, --update, --delete, --move, --chmod or --actions-file')
  }
  const actions = [
    ...(options.actionsFile === undefined ? [] : await readActionsFile(options.actionsFile, deps.io)),
    ...(await Promise.all(options.actions.map((action) => toAction(action, deps.io)))),
  ]
  const { api, ref } = options.message === undefined ? await projectBeforePrompt(deps, options.project) : await deps.project(options.project)
  const message = options.message ?? (await deps.prompter.input('Commit message', '-m/--message'))
  const { data: commit, response } = await api.send(route('createCommit', { id: ref }), {
    branch: options.branch,
    commit_message: message,
    start_branch: options.startBranch,
    start_sha: options.startSha,
    actions,
    author_name: options.authorName,
    author_email: options.authorEmail,
  })
  if (options.json) printRaw(deps.io, response.text)
  else deps.io.stdout.write(`${commit.id}\n`)
  status(deps.io, `Created commit ${commit.short_id} on ${options.branch}`)
}
