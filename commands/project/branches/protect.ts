// collab project branches protect <name>: protect a branch or a wildcard (`release/*`) with push and merge access levels.
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { reportWrite } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface ProtectOptions {
  project?: string
  name: string
  pushLevel?: number
  mergeLevel?: number
  unprotectLevel?: number
  allowForcePush?: boolean
  codeOwnerApproval?: boolean
  json: boolean
}

/** The levels a protected-branch rule takes (GitLab's ProtectedRefAccess::ALLOWED_ACCESS_LEVELS). */
export const PROTECT_LEVELS = { 'no-one': 0, developer: 30, maintainer: 40, admin: 60 } as const

export function parseProtectLevel(value: string): number {
  const name = value.trim().toLowerCase()
  if (Object.hasOwn(PROTECT_LEVELS, name)) return PROTECT_LEVELS[name as keyof typeof PROTECT_LEVELS]
  if (Object.values(PROTECT_LEVELS).includes(Number(name) as 0) && /^\d+$/.test(name)) return Number(name)
  throw new InvalidArgumentError(`expected one of ${Object.keys(PROTECT_LEVELS).join(', ')} or 0, 30, 40, 60`)
}

export function register(branches: Command, rt: Runtime): void {
  const command = branches
    .command('protect')
    .description('Protect a branch or a wildcard such as release/*')
    .argument('<name>', 'the branch name or wildcard')
    .option('--push-level <level>', 'who may push: no-one, developer, maintainer (server default) or admin', parseProtectLevel)
    .option('--merge-level <level>', 'who may merge: no-one, developer, maintainer (server default) or admin', parseProtectLevel)
    .option('--unprotect-level <level>', 'who may unprotect: developer, maintainer or admin', parseProtectLevel)
    .option('--allow-force-push', 'let those who may push force-push')
    .option('--code-owner-approval', 'require code owner approval')
  withJson(onRepository(command)).action((name: string, flags: OptionValues) => rt.invoke(command, run, toOptions(name, flags)))
}

export const toOptions = (name: string, flags: OptionValues): ProtectOptions => ({
  project: flags.project,
  name,
  pushLevel: flags.pushLevel,
  mergeLevel: flags.mergeLevel,
  unprotectLevel: flags.unprotectLevel,
  allowForcePush: flags.allowForcePush,
  codeOwnerApproval: flags.codeOwnerApproval,
  json: flags.json === true,
})

export async function run(options: ProtectOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { response } = await api.send(route('protectBranch', { id: ref }), {
    name: options.name,
    push_access_level: options.pushLevel,
    merge_access_level: options.mergeLevel,
    unprotect_access_level: options.unprotectLevel,
    allow_force_push: options.allowForcePush,
    code_owner_approval_required: options.codeOwnerApproval,
  })
  reportWrite(deps.io, options.json, response, `Protected ${options.name} in ${ref}`)
}
