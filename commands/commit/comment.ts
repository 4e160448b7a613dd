// collab commit comment <sha>: a note on a commit, on a line of one of its files when --path and --line say so.
import type { Command, OptionValues } from 'commander'
import { choice, positiveInt, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import { projectBeforePrompt, type Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { readText } from '../../src/cli/sources.js'
import { route } from '../../src/client/paths.js'
import { onCommit } from './shared.js'

export interface CommentOptions {
  project?: string
  sha: string
  message?: string
  messageFile?: string
  path?: string
  line?: number
  lineType?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('comment')
    .description('Comment on a commit, or on a line of a file it changed')
    .option('-m, --message <note>', 'the comment')
    .option('-F, --message-file <file>', 'the comment from a file, or - for stdin')
    .option('--path <path>', 'the file the comment is about')
    .option('--line <n>', 'the line number in that file', positiveInt)
    .addOption(choice('--line-type <type>', 'whether --line counts in the new or the old file (server default: new)', ['new', 'old']))
  withJson(onCommit(command)).action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): CommentOptions => ({
  project: flags.project,
  sha,
  message: flags.message,
  messageFile: flags.messageFile,
  path: flags.path,
  line: flags.line,
  lineType: flags.lineType,
  json: flags.json === true,
})

async function note(options: CommentOptions, deps: Deps): Promise<string> {
  if (options.message !== undefined && options.messageFile !== undefined) throw usageError('pass -m/--message or -F/--message-file, not both')
  if (options.messageFile !== undefined) return readText(options.messageFile, '--message-file', deps.io)
  return options.message ?? deps.prompter.input('Comment', '-m/--message')
}

export async function run(options: CommentOptions, deps: Deps): Promise<void> {
  const { api, ref } = options.message === undefined && options.messageFile === undefined
    ? await projectBeforePrompt(deps, options.project) : await deps.project(options.project)
  const text = await note(options, deps)
  const { response } = await api.send(route('createCommitComment', { id: ref, sha: options.sha }), {
    note: text,
    path: options.path,
    line: options.line,
    line_type: options.lineType,
  })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Commented on ${options.sha}${options.path ? ` at ${options.path}${options.line ? `:${options.line}` : ''}` : ''}`)
}
