// collab release upload <tag> <files...>: files into the generic package registry, linked to the release (and links
// from --assets-links JSON), as `glab release upload --use-package-registry`.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { addLinks, DEFAULT_PACKAGE, uploadFiles } from './assets.js'
import { collectLinks, parseAssetFile, type AssetFile, type NewLink } from './shared.js'

export interface UploadOptions { project?: string; tag: string; files: AssetFile[]; links: NewLink[]; packageName: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group.command('upload').description("Upload files to a release's assets (the generic package registry) and link them")
    .argument('<tag>', 'the tag of the release')
    .argument('[files...]', 'files: path, path#label or path#label#type (type: other, runbook, image, package)')
    .option('-a, --assets-links <json>', 'links to add as JSON: [{"name":…,"url":…,"direct_asset_path":…,"link_type":…}] (repeatable)', collectLinks)
    .option('--package-name <name>', `the generic package the files go to (default: ${DEFAULT_PACKAGE}; its version is the tag)`)
  withJson(withProject(withConnection(command))).action((tag: string, files: string[], flags: OptionValues) => rt.invoke(command, run, toOptions(tag, files, flags)))
}

export function toOptions(tag: string, files: string[], flags: OptionValues): UploadOptions {
  const links = flags.assetsLinks ?? []
  if (files.length === 0 && links.length === 0) throw usageError('nothing to upload', 'name files, or links with --assets-links')
  return { project: flags.project, tag, files: files.map(parseAssetFile), links, packageName: flags.packageName ?? DEFAULT_PACKAGE, json: flags.json === true }
}

export async function run(options: UploadOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  // The release first: files for a tag without a release would sit in the registry unlinked.
  await api.call(route('getRelease', { id: ref, tag_name: options.tag }))
  const uploaded = await uploadFiles(deps.io, { api, project: ref, tag: options.tag, packageName: options.packageName }, options.files)
  const links = await addLinks(api, ref, options.tag, [...options.links, ...uploaded])
  if (options.json) printRaw(deps.io, JSON.stringify(links))
  status(deps.io, `Added ${links.length} asset${links.length === 1 ? '' : 's'} to the release of ${options.tag} in ${ref}`)
}
