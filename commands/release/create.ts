// collab release create <tag> [files...]: a release (and its tag from --ref when the tag does not exist yet), with
// notes, milestones, asset links and files uploaded to the package registry, as `glab release create`. When the
// release exists it is updated unless --no-update; its milestones are closed afterwards unless --no-close-milestone.
// Only public v4 calls, so it works against GitLab too, and inside a CI job with the job token (the `release:` step).
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { isoDate, withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { ApiError } from '../../src/client/errors.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { descriptionFrom, readText } from '../../src/cli/text-input.js'
import { addLinks, checkFiles, DEFAULT_PACKAGE, uploadFiles } from './assets.js'
import { collectLinks, milestoneTitles, parseAssetFile, withMilestoneFlag, type AssetFile, type NewLink, type Release } from './shared.js'

export interface CreateOptions {
  project?: string
  tag: string
  files: AssetFile[]
  name?: string
  notes?: string
  notesFile?: string
  /** The CI keyword's description: a file of the working directory when one has that name, else the text. */
  notesTextOrFile?: string
  ref?: string
  tagMessage?: string
  releasedAt?: string
  milestones?: string[]
  links: NewLink[]
  packageName: string
  update: boolean
  closeMilestones: boolean
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('create')
    .alias('new')
    .description('Create a release, or update it when it exists (and its tag from --ref when the tag does not exist)')
    .argument('<tag>', 'the tag of the release')
    .argument('[files...]', 'files to upload and link: path, path#label or path#label#type (type: other, runbook, image, package)')
    .option('-n, --name <name>', 'the release title (default: the tag)')
    .option('-N, --notes <text>', 'the release notes (markdown)')
    .option('-F, --notes-file <file>', 'read the release notes from a file, or - for stdin')
    .option('--notes-text-or-file <text>', "the notes, or the file of that name when one exists (what .gitlab-ci.yml's release:description means)")
    .option('--experimental-notes-text-or-file <text>', "glab's name of --notes-text-or-file")
    .option('-r, --ref <ref>', 'the branch, tag or commit to create the tag from when it does not exist')
    .option('-T, --tag-message <text>', 'a message for the tag, making it an annotated tag')
    .option('-D, --released-at <time>', 'when the release is (ISO 8601; a future date makes an upcoming release)', isoDate)
    .option('-a, --assets-links <json>', 'asset links as JSON: [{"name":…,"url":…,"direct_asset_path":…,"link_type":…}] (repeatable)', collectLinks)
    .option('--package-name <name>', `the generic package the files go to (default: ${DEFAULT_PACKAGE}; its version is the tag)`)
    .option('--no-update', 'fail when the release exists instead of updating it')
    .option('--no-close-milestone', 'leave the milestones open (they are closed after the release otherwise)')
  withMilestoneFlag(command)
  withJson(withProject(withConnection(command))).action((tag: string, files: string[], flags: OptionValues) => rt.invoke(command, run, toOptions(tag, files, flags)))
}

export function toOptions(tag: string, files: string[], flags: OptionValues): CreateOptions {
  const given = ['notes', 'notesFile', 'notesTextOrFile', 'experimentalNotesTextOrFile'].filter((k) => flags[k] !== undefined)
  if (given.length > 1) throw usageError('give the notes once: --notes, --notes-file or --notes-text-or-file')
  return {
    project: flags.project, tag, files: files.map(parseAssetFile), name: flags.name, notes: flags.notes, notesFile: flags.notesFile,
    notesTextOrFile: flags.notesTextOrFile ?? flags.experimentalNotesTextOrFile, ref: flags.ref, tagMessage: flags.tagMessage,
    releasedAt: flags.releasedAt, milestones: milestoneTitles(flags.milestone), links: flags.assetsLinks ?? [],
    packageName: flags.packageName ?? DEFAULT_PACKAGE, update: flags.update !== false, closeMilestones: flags.closeMilestone !== false,
    json: flags.json === true,
  }
}

/** The notes from --notes, --notes-file, or --notes-text-or-file (a file of that name when there is one, else the text). */
async function notesOf(deps: Deps, o: CreateOptions): Promise<string | undefined> {
  if (o.notesTextOrFile === undefined) return descriptionFrom(deps, o.notes, o.notesFile)
  const path = resolve(deps.io.cwd, o.notesTextOrFile)
  return existsSync(path) && statSync(path).isFile() ? readText(deps, path) : o.notesTextOrFile
}

const exists = (err: unknown) => err instanceof ApiError && err.status === 409

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const notes = await notesOf(deps, options)
  const { api, ref: project } = await deps.project(options.project)
  if (options.files.length) await checkFiles(options.files)
  const fields = { name: options.name, description: notes, released_at: options.releasedAt, milestones: options.milestones }
  const links = options.links
  let answer: { release: Release; text: string }
  let verb = 'Created'
  try {
    const response = await api.call(route('createRelease', { id: project }), {
      json: { tag_name: options.tag, ref: options.ref, tag_message: options.tagMessage, ...fields, ...(links.length ? { assets: { links } } : {}) },
    })
    answer = { release: parseJson<Release>(response), text: response.text }
  } catch (err) {
    if (!exists(err)) throw err
    if (!options.update) throw failure(`a release of ${options.tag} exists already in ${project}`, 'leave out --no-update to update it')
    answer = await updateExisting(api, project, options.tag, fields, links)
    verb = 'Updated'
  }
  // Files go up once the release (and its tag) exists, as glab uploads them: a refused release leaves none behind.
  if (options.files.length) {
    await addLinks(api, project, options.tag, await uploadFiles(deps.io, { api, project, tag: options.tag, packageName: options.packageName }, options.files))
    answer = await readRelease(api, project, options.tag)
  }
  const { release, text } = answer
  if (options.closeMilestones) await closeMilestones(api, project, release)
  if (options.json) printRaw(deps.io, text)
  else deps.io.stdout.write(`${release._links.self}\n`)
  const count = links.length + options.files.length
  status(deps.io, `${verb} release ${release.name || release.tag_name} (${release.tag_name}) in ${project}${count ? ` with ${count} asset link${count === 1 ? '' : 's'}` : ''}`)
}

async function readRelease(api: ApiClient, project: string, tag: string) {
  const response = await api.call(route('getRelease', { id: project, tag_name: tag }))
  return { release: parseJson<Release>(response), text: response.text }
}

/** glab's update of an existing release: the fields given, then the new links; answers the release as it now is. */
async function updateExisting(api: ApiClient, project: string, tag: string, fields: Record<string, unknown>, links: NewLink[]) {
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
  if (Object.keys(given).length) await api.call(route('updateRelease', { id: project, tag_name: tag }), { json: given })
  await addLinks(api, project, tag, links)
  return readRelease(api, project, tag)
}

/** Closes the release's open milestones, as glab does after a release (its --no-close-milestone keeps them open). */
async function closeMilestones(api: ApiClient, project: string, release: Release) {
  for (const m of release.milestones ?? []) {
    if (m.state !== 'active') continue
    const edit = m.group_id ? route('editGroupMilestone', { id: m.group_id, milestone_id: m.id }) : route('editProjectMilestone', { id: project, milestone_id: m.id })
    await api.call(edit, { json: { state_event: 'close' } })
  }
}
