// collab project download [project]: the repository as an archive (tar.gz unless --format), streamed to a file with a
// progress bar on a terminal, as glab repo archive. (`collab project archive` archives the project itself.)
import { resolve } from 'node:path'
import { Option, type Command, type OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { openBytes } from '../job/bytes.js'
import { saveTo } from '../job/transfer.js'
import { onProject } from './shared.js'

const FORMATS = ['tar.gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2', 'tar', 'zip'] as const

export interface DownloadOptions { project?: string; format: string; sha?: string; path?: string; output?: string }

export function register(group: Command, rt: Runtime): void {
  const command = onProject(group.command('download').description('Download the repository as an archive (tar.gz, tar.bz2, tar or zip)'))
    .addOption(new Option('-f, --format <format>', 'the archive format').choices(FORMATS).default('tar.gz'))
    .option('-s, --sha <ref>', 'a branch, tag or commit (the default branch if not given)')
    .option('--path <dir>', 'only this directory of the repository')
    .option('-o, --output <file>', "where to write it ('-' for stdout; the server's file name if not given)")
  command.action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export const toOptions = (project: string | undefined, flags: OptionValues): DownloadOptions => ({
  project: project ?? flags.project, format: flags.format, sha: flags.sha, path: flags.path, output: flags.output,
})

/** Workhorse's `attachment; filename="…"`, kept to its last path part. */
function serverFileName(disposition: string | undefined, fallback: string): string {
  const name = /filename="([^"]*)"/.exec(disposition ?? '')?.[1]?.split(/[\\/]/).pop()
  return name && name !== '.' && name !== '..' ? name : fallback
}

export async function run(options: DownloadOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const query = Object.fromEntries(Object.entries({ sha: options.sha, path: options.path }).filter(([, v]) => v !== undefined)) as Record<string, string>
  const res = await openBytes(api, route('getArchiveFormat', { id: ref, format: options.format }), { query })
  const output = options.output ?? serverFileName(res.headers['content-disposition'], `archive.${options.format}`)
  await saveTo(deps.io, res, output === '-' ? '-' : resolve(deps.io.cwd, output), Number(res.headers['content-length']) || undefined)
  if (output !== '-') status(deps.io, `Saved the archive of ${ref} to ${output}`)
}
