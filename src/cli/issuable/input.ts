// The flags and prompts that create and edit of issues and merge requests share: title and description, label edits,
// discussion lock.
import type { Command, OptionValues } from 'commander'
import { collect } from '../command.js'
import type { Deps } from '../factory.js'
import { composeText } from '../prompts.js'
import { csv } from '../text-input.js'

/** -t, -d, -F; on create the title is asked for on a terminal when missing. */
export const withTitleAndDescription = (command: Command, edit: boolean) => command
  .option('-t, --title <title>', edit ? 'new title' : 'the title (asked for on a terminal when missing)')
  .option('-d, --description <text>', edit ? 'new description' : 'the description')
  .option('-F, --description-file <file>', `read the ${edit ? 'new ' : ''}description from a file, or - for stdin`)

/** With no --title (on a terminal): asks for one, then offers $EDITOR for a description none was given for. */
export async function askTitle(deps: Deps, title: string | undefined, description: string | undefined): Promise<{ title: string; description?: string }> {
  if (title !== undefined) return { title, description }
  const asked = await deps.prompter.input('Title', '--title')
  if (description !== undefined) return { title: asked, description }
  return { title: asked, description: (await composeText(deps.prompter, 'Description', 'Description (saved when the editor closes)', '--description')).trim() || undefined }
}

export const withLabelEdits = (command: Command) => command
  .option('-l, --label <labels>', 'replace the labels (repeat or comma-separate; "" removes all)', collect)
  .option('--add-label <labels>', 'add labels', collect)
  .option('--remove-label <labels>', 'remove labels', collect)

export const withLock = (command: Command) => command
  .option('--lock', 'lock the discussion to project members')
  .option('--unlock', 'unlock the discussion')

/** The PUT fields of withTitleAndDescription's title, withLabelEdits and withLock; only what a flag names. */
export function sharedEditFields(flags: OptionValues): Record<string, string | boolean> {
  const fields: Record<string, string | boolean> = {}
  if (flags.title !== undefined) fields.title = flags.title
  if (flags.label !== undefined) fields.labels = (csv(flags.label) ?? []).join(',')
  if (flags.addLabel !== undefined) fields.add_labels = csv(flags.addLabel)!.join(',')
  if (flags.removeLabel !== undefined) fields.remove_labels = csv(flags.removeLabel)!.join(',')
  if (flags.lock) fields.discussion_locked = true
  if (flags.unlock) fields.discussion_locked = false
  return fields
}
