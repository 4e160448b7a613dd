// Project uploads (the attachments of issue and merge request descriptions): files under uploads/<project>/<secret>/.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { CollabError, forbidden } from '../../../core/errors.js'
import { sanitizeUploadName } from '../../../core/upload-name.js'
import type { AppDeps, RequestContext } from '../../context.js'
import type { ProjectView } from '../../store/projects.js'
import { requireReadCode } from '../repository/repository.js'

export interface UploadedFile { filename: string; data: Buffer }

const IMAGE_OR_VIDEO = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg|mp4|m4v|mov|webm|ogv)$/i

/** GitLab's sanitized upload name, at most 255 characters (its end kept, with the extension). */
export const sanitizedName = (original: string): string => sanitizeUploadName(original).slice(-255)

/** FileUploader#markdown_name: an image's name without its extension, brackets made `_`. */
const markdownName = (name: string) => (IMAGE_OR_VIDEO.test(name) ? name.replace(/\.[^.]*$/, '') : name).replace(/[[\]]/g, '_')

export interface UploadAnswer { alt: string; url: string; full_path: string; markdown: string }

const notFound = () => new CollabError('NOT_FOUND', '404 Not Found', { status: 404 })
const fileMissing = () => new CollabError('MISSING_ATTRIBUTE', 'file is missing', { status: 400, body: { error: 'file is missing' } })

/** The directory of one upload: a fresh 32-hex secret under the project's folder, so no name can reach outside it. */
function uploadDir(ctx: RequestContext, projectId: number, secret: string) {
  return join(ctx.app.layout.uploads, String(projectId), secret)
}

/** Removes a deleted project's uploads: a later project may get its id, and must not serve them. */
export const removeProjectUploads = (app: AppDeps, projectId: number) => rm(join(app.layout.uploads, String(projectId)), { recursive: true, force: true })

/** UploadService: any signed-in reader of the project may attach a file (max_attachment_size is checked by the body parser). */
export async function uploadFile(ctx: RequestContext, p: ProjectView, file: UploadedFile | undefined): Promise<UploadAnswer> {
  requireReadCode(ctx, p)
  if (p.archived) throw forbidden()
  if (!file) throw fileMissing()
  const name = sanitizedName(file.filename)
  const secret = randomBytes(16).toString('hex')
  const dir = uploadDir(ctx, p.id, secret)
  const target = resolve(dir, name)
  if (!target.startsWith(dir + sep)) throw new CollabError('BAD_REQUEST', 'file is invalid', { status: 400, body: { error: 'file is invalid' } })
  await mkdir(dir, { recursive: true, mode: 0o700 })
  try {
    await writeFile(target, file.data, { flag: 'wx', mode: 0o600 })
  } catch (err) {
    await rm(dir, { recursive: true, force: true })
    throw err
  }
  const url = `/uploads/${secret}/${name}`
  const alt = markdownName(name)
  return { alt, url, full_path: `/-/project/${p.id}/uploads/${secret}/${name}`, markdown: `${IMAGE_OR_VIDEO.test(name) ? '!' : ''}[${alt}](${url})` }
}

const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', ico: 'image/vnd.microsoft.icon', webp: 'image/webp',
  tif: 'image/tiff', tiff: 'image/tiff', mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', ogv: 'video/ogg',
  pdf: 'application/pdf', txt: 'text/plain; charset=utf-8', md: 'text/plain; charset=utf-8', log: 'text/plain; charset=utf-8',
}

export interface UploadRead { name: string; content: Buffer; contentType: string; inline: boolean }

/** An upload by its secret and name; 404 for anything that is not exactly one stored file of this project. */
export async function readUpload(ctx: RequestContext, p: ProjectView, secret: string, filename: string): Promise<UploadRead> {
  requireReadCode(ctx, p)
  if (!/^[0-9a-f]{32}$/.test(secret) || sanitizedName(filename) !== filename) throw notFound()
  let content: Buffer
  try {
    content = await readFile(join(uploadDir(ctx, p.id, secret), filename))
  } catch {
    throw notFound()
  }
  const ext = /\.([^.]+)$/.exec(filename)?.[1].toLowerCase() ?? ''
  // SVG is served as a download: inline, its scripts would run on our origin.
  const contentType = Object.hasOwn(TYPES, ext) ? TYPES[ext] : 'application/octet-stream'
  return { name: filename, content, contentType, inline: contentType.startsWith('image/') || contentType.startsWith('video/') }
}
