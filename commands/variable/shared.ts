// What the variable verbs share: the columns of a list, the `--scope` that picks one of several variables sharing a key.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export type Variable = ResponseOf<'getProjectVariable'>

export const variableColumns = (io: IO): Column<Variable>[] => [
  { header: 'KEY', value: (v) => v.key, style: (text) => io.color.bold(text) },
  { header: 'TYPE', value: (v) => v.variable_type },
  { header: 'PROTECTED', value: (v) => v.protected },
  { header: 'MASKED', value: (v) => v.masked },
  { header: 'RAW', value: (v) => v.raw },
  { header: 'SCOPE', value: (v) => v.environment_scope },
  // A masked value stays off a shared screen; scripts piping the list get it (they asked the API for it).
  { header: 'VALUE', value: (v) => (io.stdoutIsTTY && v.masked ? '[MASKED]' : v.value), flex: true },
]

/** `<key>` plus --scope, -p, --host, --token: a verb on one variable. */
export const onVariable = (command: Command) =>
  withProject(withConnection(command
    .argument('<key>', 'the variable name')
    .option('--scope <environment>', 'of several variables with this key, the one of this environment scope')))

/** `filter[environment_scope]=…`, GitLab's way of naming one of several variables sharing a key. */
export const scopeFilter = (scope: string | undefined) => (scope === undefined ? {} : { 'filter[environment_scope]': scope })
