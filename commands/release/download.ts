// collab release download [tag]: a release's linked assets (the latest release without a tag) into --dir, each
// streamed to disk with a progress bar on a terminal; --asset-name/--include and --exclude pick them by glob.
import { basename, join, resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { collect, withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { wildcardMatch } from '../../src/core/wildcard.js'
import { openUrl } from '../job/bytes.js'
import { saveTo } from '../job/transfer.js'
import { findRelease, type ReleaseLink } from './shared.js'

export interface DownloadOptions { project?: string; tag?: string; include: string[]; exclude: string[]; dir: string }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('download').description("Download a release's assets (default: the latest release's, into the current directory)")
    .argument('[tag]', 'the tag of the release (default: the latest release)')
    .option('-n, --asset-name <glob>', 'only assets whose name matches (* matches anything; repeatable)', collect)
    .option('-i, --include <glob>', 'the same as --asset-name', collect)
    .option('-x, --exclude <glob>', 'leave out assets whose name matches (repeatable)', collect)
    .option('-D, --dir <dir>', 'the directory to save them in (default: the current directory)')
  withProject(withConnection(command)).action((tag: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(tag, flags)))
}

export const toOptions = (tag: string | undefined, flags: OptionValues): DownloadOptions => ({
  project: flags.project, tag, include: [...flags.assetName ?? [], ...flags.include ?? []], exclude: flags.exclude ?? [], dir: flags.dir ?? '.',
})

/** The file an asset is saved as: its name without directories; a name that leaves none is refused. */
function fileName(link: ReleaseLink): string {
  const name = basename(link.name.replace(/\\/g, '/'))
  if (!name || name === '.' || name === '..') throw failure(`the asset name '${link.name}' is not a file name; nothing more was downloaded`)
  return name
}

export async function run(options: DownloadOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const { release } = await findRelease(api, ref, options.tag)
  const picked = release.assets.links.filter((l) =>
    (options.include.length === 0 || options.include.some((g) => wildcardMatch(g, l.name))) && !options.exclude.some((g) => wildcardMatch(g, l.name)))
  if (picked.length === 0) {
    const why = release.assets.links.length ? 'no asset matches' : 'the release has no assets'
    throw (options.include.length || options.exclude.length ? usageError : failure)(`${why} (release ${release.tag_name} of ${ref})`)
  }
  const names = picked.map(fileName)
  if (new Set(names).size < names.length) throw failure('two assets have the same name; pick one with --asset-name')
  for (const [i, link] of picked.entries()) {
    // The link's own URL: the direct asset URL is a web page of the instance, which takes no API token.
    const res = await openUrl(api, new URL(link.url))
    const file = resolve(deps.io.cwd, options.dir, names[i])
    await saveTo(deps.io, res, file, Number(res.headers['content-length']) || undefined)
    status(deps.io, `Downloaded ${link.name} to ${join(options.dir, names[i])}`)
  }
}
