// collab commit status set [sha] --state S --name N: what a CI script runs to report on a commit, from flags or CI_* alone.
import { InvalidArgumentError, Option, type Command, type OptionValues } from 'commander'
import { positiveInt, withJson, type Runtime } from '../../../src/cli/command.js'
import { usageError } from '../../../src/cli/errors.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { localRevision } from '../../mr/git.js'
import { onRepository } from '../shared.js'
import { STATES } from './shared.js'

export interface StatusSetOptions {
  project?: string
  /** Undefined: CI_COMMIT_SHA. For that commit, the ref defaults to CI_COMMIT_REF_NAME. */
  sha?: string
  state: string
  name?: string
  context?: string
  ref?: string
  targetUrl?: string
  description?: string
  coverage?: number
  pipelineId?: number
  json: boolean
}

function percentage(value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('expected a number such as 87.5')
  return n
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('set')
    .description('Add or update a status of a commit (a later one with the same name and ref replaces it)')
    .argument('[sha]', 'commit SHA, branch or tag (default: CI_COMMIT_SHA)')
    .addOption(new Option('-s, --state <state>', 'the state').choices(STATES).makeOptionMandatory())
    .addOption(new Option('-n, --name <name>', 'what is reported on, e.g. build or lint (server default: default)').conflicts('context'))
    .addOption(new Option('--context <name>', 'the same as --name (GitHub\'s word)').conflicts('name'))
    .option('--ref <ref>', 'the branch or tag the status is for (default: CI_COMMIT_REF_NAME for CI_COMMIT_SHA, else a branch with the commit)')
    .option('--target-url <url>', 'a link to details, such as the job log')
    .option('--description <text>', 'a short description')
    .option('--coverage <percent>', 'a test coverage figure', percentage)
    .option('--pipeline-id <id>', 'the pipeline the status belongs to', positiveInt)
  withJson(onRepository(command)).action((sha: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(sha, flags)))
}

export const toOptions = (sha: string | undefined, flags: OptionValues): StatusSetOptions => ({
  project: flags.project,
  sha,
  state: flags.state,
  name: flags.name,
  context: flags.context,
  ref: flags.ref,
  targetUrl: flags.targetUrl,
  description: flags.description,
  coverage: flags.coverage,
  pipelineId: flags.pipelineId,
  json: flags.json === true,
})

export async function run(options: StatusSetOptions, deps: Deps): Promise<void> {
  const { env } = deps.io
  const sha = options.sha === undefined ? env.CI_COMMIT_SHA : await localRevision(deps.io, options.sha)
  if (!sha) throw usageError("missing required argument 'sha'", 'pass the commit, or run inside a CI job that sets CI_COMMIT_SHA')
  // The job's commit may sit only on a tag or a merge request ref: the job's own ref is right, not a branch the server guesses.
  const ref = options.ref ?? (env.CI_COMMIT_SHA && sha === env.CI_COMMIT_SHA ? env.CI_COMMIT_REF_NAME || undefined : undefined)
  const { api, ref: project } = await deps.project(options.project)
  const { data, response } = await api.send(route('postCommitStatus', { id: project, sha }), {
    state: options.state,
    name: options.name,
    context: options.context,
    ref,
    target_url: options.targetUrl,
    description: options.description,
    coverage: options.coverage,
    pipeline_id: options.pipelineId,
  })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Set ${data.name} to ${data.status} on ${data.sha.slice(0, 8)}${data.ref ? ` (${data.ref})` : ''}`)
}
