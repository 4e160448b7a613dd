// What the label verbs share: the columns of a list and the flags that set a label's fields.
import type { Command, OptionValues } from 'commander'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export type Label = ResponseOf<'getProjectLabel'>

export const labelColumns = (io: IO): Column<Label>[] => [
  { header: 'NAME', value: (l) => l.name, style: (text) => io.color.bold(text) },
  { header: 'COLOR', value: (l) => l.color },
  { header: 'PRIORITY', value: (l) => l.priority },
  { header: 'DESCRIPTION', value: (l) => l.description, flex: true },
]

export interface LabelFields { color?: string; description?: string; priority?: number | null }

export const withLabelFields = (command: Command) => command
  .option('-c, --color <color>', "a hex colour (#FF0000) or a CSS colour name")
  .option('-d, --description <text>', 'what the label means')
  .option('--priority <n>', "the label's priority; '' removes it")

/** The flags given, as the API's fields (a flag not given is not sent). */
export function labelFields(flags: OptionValues): LabelFields {
  const fields: LabelFields = {}
  if (flags.color !== undefined) fields.color = flags.color
  if (flags.description !== undefined) fields.description = flags.description
  if (flags.priority !== undefined) fields.priority = flags.priority === '' ? null : Number(flags.priority)
  return fields
}
