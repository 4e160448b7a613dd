// collab project branches create <name>: a new branch at a ref (default: the project's default branch).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import { failure } from '../../../src/cli/errors.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, status } from '../../../src/cli/output.js'
import type { ApiClient } from '../../../src/client/http.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface BranchCreateOptions {
  project?: string
  name: string
  ref?: string
  json: boolean
}

export function register(branches: Command, rt: Runtime): void {
  const command = branches
    .command('create')
    .description('Create a branch')
    .argument('<name>', 'the new branch')
    .option('-r, --ref <ref>', 'branch, tag or SHA to start it at (default: the default branch)')
  withJson(onRepository(command)).action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): BranchCreateOptions => ({
  project: flags.project,
  name,
  ref: flags.ref,
  json: flags.json === true,
})

/** The API needs a ref; without --ref, the project's default branch is what `git branch NAME` on a fresh clone would use. */
async function defaultBranch(api: ApiClient, project: string): Promise<string> {
  const { default_branch: branch } = await api.get(route('getProject', { id: project }))
  if (!branch) throw failure('the project has no default branch yet', 'pass --ref, or push or commit a first branch')
  return branch
}

export async function run(options: BranchCreateOptions, deps: Deps): Promise<void> {
  const { api, ref: project } = await deps.project(options.project)
  const ref = options.ref ?? (await defaultBranch(api, project))
  const { data, response } = await api.send(route('createBranch', { id: project }), { branch: options.name, ref })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Created branch ${data.name} at ${data.commit.short_id}`)
}
