// User avatars (GitLab's AvatarUploader): one image per user under uploads/-/system/user/avatar/<id>/, served at the
// same path under the base URL, as GitLab's avatar_url.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { IDENTICON_NAME } from '../../../core/avatar-url.js'
import { validationFailed } from '../../../core/errors.js'
import type { AppDeps } from '../../context.js'
import { updateUserRow } from '../../store/user-admin.js'
import { findUserById } from '../../store/users.js'
import { sanitizedName } from './uploads.js'

export interface AvatarFile { filename: string; data: Buffer }

const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tiff: 'image/tiff',
  ico: 'image/vnd.microsoft.icon', webp: 'image/webp',
}
const MAX_BYTES = 200 * 1024

const extension = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? ''

/** Checked before anything is written, so a refused avatar leaves no user half-made. */
export function checkAvatar(file: AvatarFile | undefined) {
  if (!file) return
  if (!(extension(file.filename) in TYPES)) {
    throw validationFailed({ avatar: [`file format is not supported. Please try one of the following supported formats: ${Object.keys(TYPES).join(', ')}`] })
  }
  if (file.data.length > MAX_BYTES) throw validationFailed({ avatar: ['is too big (should be at most 200 KiB)'] })
}

const avatarDir = (app: AppDeps, userId: number) => join(app.layout.uploads, '-', 'system', 'user', 'avatar', String(userId))

/** Replaces the user's avatar: the old file goes, the new one is written under its sanitized name. */
export async function saveAvatar(app: AppDeps, userId: number, file: AvatarFile) {
  const dir = avatarDir(app, userId)
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  const name = sanitizedName(file.filename)
  await writeFile(join(dir, name), file.data)
  updateUserRow(app.db, userId, { avatar_path: name })
  return findUserById(app.db, userId)!
}

export const removeAvatars = (app: AppDeps, userId: number) => rm(avatarDir(app, userId), { recursive: true, force: true })

/** GitLab's identicon colours (the bg1…bg7 avatar classes), picked by user id as GitLab picks them. */
const IDENTICON_COLORS = ['#fcf1ef', '#f4f0ff', '#f1f1ff', '#e9f3fc', '#ecf4ee', '#fdf1dd', '#f0f0f0']
const IDENTICON_TEXT = ['#8d1300', '#5b38b1', '#3b43a7', '#0f4f86', '#24663b', '#8e5900', '#333238']

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The default avatar of a user without one: the first letter of the name on the user's colour, as an SVG. */
export function identicon(user: { id: number; name: string; username: string }): Buffer {
  const letter = [...(user.name.trim() || user.username)][0]?.toUpperCase() ?? '?'
  const i = user.id % IDENTICON_COLORS.length
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">'
    + `<rect width="80" height="80" fill="${IDENTICON_COLORS[i]}"/>`
    + `<text x="40" y="40" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="36" fill="${IDENTICON_TEXT[i]}">${escapeXml(letter)}</text>`
    + '</svg>',
  )
}

/**
 * The stored file when the name is the user's current avatar, the identicon under its own name when the user has
 * none; null otherwise (a 404, whatever the name or the user id holds).
 */
export async function readAvatar(app: AppDeps, userId: number, name: string) {
  const user = findUserById(app.db, userId)
  if (!user) return null
  const current = user.avatar_path
  if (current === null && name === IDENTICON_NAME) return { data: identicon(user), type: 'image/svg+xml' }
  if (current === null || name !== current) return null
  const data = await readFile(join(avatarDir(app, userId), current)).catch(() => null)
  return data && { data, type: TYPES[extension(current)]! }
}
