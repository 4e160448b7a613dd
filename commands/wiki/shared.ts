// What the wiki verbs share: the page type, the `<slug>` argument, page content from flags, files or stdin, and a
// page drawn for a terminal.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { completeWith } from '../complete.js'
import { readText } from '../../src/cli/text-input.js'
import { wikiSlugCandidates } from './complete.js'

export type WikiPage = ResponseOf<'getWikiPage'>

export const FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const

export const pageColumns = (io: IO): Column<{ slug: string; title: string; format: string }>[] => [
  { header: 'SLUG', value: (p) => p.slug, style: (text) => io.color.bold(text) },
  { header: 'TITLE', value: (p) => p.title, flex: true },
  { header: 'FORMAT', value: (p) => p.format, style: (text) => io.color.dim(text) },
]

/** `<slug>` plus -p, --host, --token: a verb on one page. Subpages are written with `/` (`guides/setup`). */
export function onPage(command: Command): Command {
  command.argument('<slug>', 'the page slug, with / for subpages (guides/install)')
  completeWith(command.registeredArguments[command.registeredArguments.length - 1], wikiSlugCandidates)
  return withProject(withConnection(command))
}

/** `--content TEXT`, `--content-file FILE` or `-` for stdin; undefined when neither was given. */
export async function contentFrom(deps: Deps, text: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) throw usageError('--content and --content-file are mutually exclusive')
  return file !== undefined ? readText(deps, file) : text
}

/**
 * A page for a person at a terminal: its title, then markdown with headings bold and code dimmed. Other formats
 * print as written; piped output never comes here (it is the raw content).
 */
export function renderForTerminal(io: IO, page: { title: string; format: string; content: string }): string {
  // A page that opens with its own title as a heading shows it once, as GitLab's page does not repeat it either.
  const first = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/m.exec(page.content.split('\n', 1)[0] ?? '')
  const titled = page.format === 'markdown' && first !== null && first[1].toLowerCase() === page.title.toLowerCase()
  const lines = titled ? [] : [io.color.bold(page.title), '']
  let fenced = false
  for (const line of page.content.replace(/\n$/, '').split('\n')) {
    if (page.format !== 'markdown') lines.push(line)
    else if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    else if (fenced || /^( {4}|\t)/.test(line)) lines.push(io.color.dim(line))
    else if (/^#{1,6}\s/.test(line)) lines.push(io.color.bold(line.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, '')))
    else lines.push(line.replace(/`([^`]+)`/g, (_, code: string) => io.color.dim(code)))
  }
  return `${lines.join('\n')}\n`
}
