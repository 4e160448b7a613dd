// collab commit cherry-pick <sha> --branch B: apply a commit's change on top of a branch, as a new commit there.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onCommit } from './shared.js'

export interface CherryPickOptions {
  project?: string
  sha: string
  branch: string
  message?: string
  dryRun: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('cherry-pick')
    .description('Apply a commit onto a branch as a new commit')
    .requiredOption('-b, --branch <branch>', 'the branch to apply the commit to')
    .option('-m, --message <message>', 'the new commit\'s message (default: the original\'s)')
    .option('--dry-run', 'only check that the commit applies cleanly; change nothing')
  withJson(onCommit(command)).action((sha: string, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string, flags: OptionValues): CherryPickOptions => ({
  project: flags.project,
  sha,
  branch: flags.branch,
  message: flags.message,
  dryRun: flags.dryRun === true,
  json: flags.json === true,
})

export async function run(options: CherryPickOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('cherryPickCommit', { id: ref, sha: options.sha }), {
    branch: options.branch,
    message: options.message,
    dry_run: options.dryRun || undefined,
  })
  if (options.json) printRaw(deps.io, response.text)
  if (options.dryRun) return status(deps.io, `${options.sha} applies cleanly to ${options.branch}`)
  if (!options.json) deps.io.stdout.write(`${data.id}\n`)
  status(deps.io, `Cherry-picked ${options.sha} onto ${options.branch} as ${data.short_id}`)
}
