// What the variable verbs share: whose variables (a project's, a group's with --group, the instance's with
// --instance), the columns of a list, and the `--scope` that picks one of several variables sharing a key.
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ApiClient } from '../../src/client/http.js'
import { route, type Route } from '../../src/client/paths.js'
import type { EndpointName, ResponseOf } from '../../src/contract/routes.js'

/** Instance variables come without environment_scope. */
export type Variable = Omit<ResponseOf<'getProjectVariable'>, 'environment_scope'> & { environment_scope?: string }

export const variableColumns = (io: IO, scoped = true): Column<Variable>[] => [
  { header: 'KEY', value: (v) => v.key, style: (text) => io.color.bold(text) },
  { header: 'TYPE', value: (v) => v.variable_type },
  { header: 'PROTECTED', value: (v) => v.protected },
  { header: 'MASKED', value: (v) => v.masked },
  { header: 'RAW', value: (v) => v.raw },
  ...(scoped ? [{ header: 'SCOPE', value: (v: Variable) => v.environment_scope }] : []),
  // A masked value stays off a shared screen; scripts piping the list get it (they asked the API for it).
  { header: 'VALUE', value: (v) => (io.stdoutIsTTY && v.masked ? '[MASKED]' : v.value), flex: true },
]

/** -p, --group, --instance, --host, --token: whose variables a verb works on. */
export const withOwner = (command: Command) =>
  withProject(withConnection(command))
    .option('-g, --group <group>', "a group's variables instead of a project's (id or path; Maintainers)")
    .option('--instance', "the instance's variables instead of a project's (administrators)")

/** `<key>` plus --scope and the owner flags: a verb on one variable. */
export const onVariable = (command: Command) =>
  withOwner(command
    .argument('<key>', 'the variable name')
    .option('--scope <environment>', 'of several variables with this key, the one of this environment scope'))

export interface OwnerOptions { project?: string; group?: string; instance: boolean }

export const ownerOf = (flags: OptionValues): OwnerOptions => ({ project: flags.project, group: flags.group, instance: flags.instance === true })

type Kind = 'project' | 'group' | 'instance'

export interface VariableTarget { api: ApiClient; kind: Kind; id: string; where: string }

export async function variableTarget(o: OwnerOptions, deps: Deps, scope?: string): Promise<VariableTarget> {
  if ([o.project !== undefined, o.group !== undefined, o.instance].filter(Boolean).length > 1) {
    throw usageError('pass one of -p/--project, -g/--group and --instance')
  }
  if (o.instance && scope !== undefined) throw usageError('instance variables have no environment scope: drop --scope')
  if (o.instance) return { api: await deps.api(), kind: 'instance', id: '', where: 'the instance' }
  if (o.group !== undefined) return { api: await deps.api(), kind: 'group', id: o.group, where: o.group }
  const { api, ref } = await deps.project(o.project)
  return { api, kind: 'project', id: ref, where: ref }
}

const NAMES = {
  project: { list: 'listProjectVariables', get: 'getProjectVariable', create: 'createProjectVariable', update: 'updateProjectVariable', delete: 'deleteProjectVariable' },
  group: { list: 'listGroupVariables', get: 'getGroupVariable', create: 'createGroupVariable', update: 'updateGroupVariable', delete: 'deleteGroupVariable' },
  instance: { list: 'listInstanceVariables', get: 'getInstanceVariable', create: 'createInstanceVariable', update: 'updateInstanceVariable', delete: 'deleteInstanceVariable' },
} as const satisfies Record<Kind, Record<string, EndpointName>>

/** The endpoint of a verb for the target's level; the three levels share paths' shapes (`:id`, `:key`). */
export const variableRoute = <T = Variable>(t: VariableTarget, verb: keyof typeof NAMES.project, key?: string): Route<T> =>
  route(NAMES[t.kind][verb] as 'getProjectVariable', { id: t.id, key: key ?? '' }) as Route<T>

/** `filter[environment_scope]=…`, GitLab's way of naming one of several variables sharing a key. */
export const scopeFilter = (scope: string | undefined) => (scope === undefined ? {} : { 'filter[environment_scope]': scope })
