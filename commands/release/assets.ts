// A release's files: uploaded into the project's generic package registry (package `release-assets`, version the
// tag, as glab's --use-package-registry does) and linked to the release with a direct asset path; links added from
// JSON; downloads of linked assets streamed to disk.
import { stat } from 'node:fs/promises'
import { usageError } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import { parseJson, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { genericFileRoute, uploadGenericFile } from '../package/transfer.js'
import type { AssetFile, NewLink } from './shared.js'

export const DEFAULT_PACKAGE = 'release-assets'

/** The project's numeric id: package URLs stored in links must survive a rename of the project. */
export async function projectId(api: ApiClient, project: string): Promise<number> {
  if (/^\d+$/.test(project)) return Number(project)
  return (await api.get(route('getProject', { id: project }))).id
}

/** Files must exist and be regular before anything is created: a missing one is a usage error, not half a release. */
export async function checkFiles(files: AssetFile[]): Promise<void> {
  await Promise.all(files.map(async (f) => {
    const s = await stat(f.path).catch((err: Error) => { throw usageError(`cannot read ${f.path}: ${err.message}`) })
    if (!s.isFile()) throw usageError(`${f.path} is not a file`)
  }))
}

export interface UploadTarget { api: ApiClient; project: string; tag: string; packageName: string }

/** Uploads each file into the generic package `<package>/<tag>` and answers the links that point at them. */
export async function uploadFiles(io: IO, t: UploadTarget, files: AssetFile[]): Promise<NewLink[]> {
  await checkFiles(files)
  const id = await projectId(t.api, t.project)
  const links: NewLink[] = []
  for (const f of files) {
    const file = { project: String(id), name: t.packageName, version: t.tag, fileName: f.name }
    await uploadGenericFile(t.api, io, f.path, file)
    const url = t.api.url(genericFileRoute(file).path).href
    links.push({ name: f.label, url, direct_asset_path: `/${f.name}`, ...(f.linkType ? { link_type: f.linkType } : {}) })
  }
  return links
}

/** Adds each link to an existing release, in order; answers the API's links. */
export async function addLinks(api: ApiClient, project: string, tag: string, links: NewLink[]): Promise<unknown[]> {
  const out: unknown[] = []
  for (const link of links) {
    const response = await api.call(route('createReleaseLink', { id: project, tag_name: tag }), { json: link })
    out.push(parseJson(response))
  }
  return out
}
