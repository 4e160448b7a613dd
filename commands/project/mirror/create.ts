// collab project mirror create <url>: a push mirror, enabled unless --disabled (the API's default is disabled).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printRaw, status } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface MirrorCreateOptions {
  project?: string
  url: string
  enabled: boolean
  protectedOnly: boolean
  keepDivergentRefs: boolean
  branchRegex?: string
  json: boolean
}

export function register(mirror: Command, rt: Runtime): void {
  const command = mirror
    .command('create')
    .description('Push this project to another repository after every push (credentials in the URL are kept sealed)')
    .argument('<url>', 'http(s) URL of the repository to push to, with user and token: https://oauth2:TOKEN@gitlab.example.com/g/p.git')
    .option('--disabled', 'create it switched off')
    .option('--protected-only', 'mirror only protected branches (and every tag)')
    .option('--keep-divergent-refs', 'never overwrite a branch that moved on the mirror, nor delete anything there')
    .option('--branch-regex <regex>', 'mirror only the branches matching this regular expression (RE2)')
  withJson(onRepository(command)).action((url: string, flags: OptionValues) => rt.invoke(command, run, toOptions(url, flags)))
}

export const toOptions = (url: string, flags: OptionValues): MirrorCreateOptions => ({
  project: flags.project,
  url,
  enabled: flags.disabled !== true,
  protectedOnly: flags.protectedOnly === true,
  keepDivergentRefs: flags.keepDivergentRefs === true,
  branchRegex: flags.branchRegex,
  json: flags.json === true,
})

export async function run(options: MirrorCreateOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('createRemoteMirror', { id: ref }), {
    url: options.url,
    enabled: options.enabled,
    keep_divergent_refs: options.keepDivergentRefs || undefined,
    only_protected_branches: options.protectedOnly || undefined,
    mirror_branch_regex: options.branchRegex,
  })
  if (options.json) printRaw(deps.io, response.text)
  status(deps.io, `Created push mirror ${data.id} to ${data.url}${data.enabled ? '' : ' (disabled)'}`)
}
