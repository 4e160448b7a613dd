// collab release view [tag]: a release (the latest without a tag): its facts, notes and assets; its page with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { timeText } from '../../src/cli/terminal.js'
import { findRelease } from './shared.js'

export interface ViewOptions { project?: string; tag?: string; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('view').alias('show').description('Show a release (default: the latest) and its assets')
    .argument('[tag]', 'the tag of the release (default: the latest release)')
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
  withJson(withProject(withConnection(command))).action((tag: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(tag, flags)))
}

export const toOptions = (tag: string | undefined, flags: OptionValues): ViewOptions => ({ project: flags.project, tag, web: flags.web === true, json: flags.json === true })

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { release: r, text } = await findRelease(api, ref, options.tag)
  if (options.json) return printRaw(deps.io, text)
  if (options.web) return openInBrowser(deps.io, r._links.self)
  const { io } = deps
  printFields(io, [
    ['name', r.name],
    ['tag', r.tag_name],
    ['author', r.author?.username],
    ['commit', r.commit?.id],
    ['created_at', timeText(io, r.created_at)],
    ['released_at', timeText(io, r.released_at)],
    ['upcoming', r.upcoming_release],
    ['milestones', (r.milestones ?? []).map((m) => m.title).join(',')],
    ['assets', r.assets.links.length],
    ['web_url', r._links.self],
  ], r.description ?? '', () => {
    // One line per link: its name, type and where it downloads from.
    if (!r.assets.links.length) return
    io.stdout.write(io.stdoutIsTTY ? `\n${io.color.bold('Assets')}\n` : '')
    for (const l of r.assets.links) io.stdout.write(`${io.stdoutIsTTY ? '  ' : 'asset\t'}${l.name}\t${l.link_type}\t${l.direct_asset_url}\n`)
  })
}
