// GitLab's wiki naming rules (compat-mr-ci-wiki §2): formats and extensions, slugs from titles, titles from paths.
import { posix } from 'node:path'

/** Formats a page may be created in, with the extension GitLab writes for each. */
export const WRITABLE_FORMATS = { markdown: 'md', rdoc: 'rdoc', asciidoc: 'asciidoc', org: 'org' } as const
export type WikiFormat = keyof typeof WRITABLE_FORMATS

// Extensions read as pages; the last six are shown but cannot be created through the API.
const READ_EXTENSIONS: Record<string, string> = {
  md: 'markdown', mkd: 'markdown', mkdn: 'markdown', mdown: 'markdown', markdown: 'markdown',
  rdoc: 'rdoc', asciidoc: 'asciidoc', adoc: 'asciidoc', org: 'org',
  textile: 'textile', creole: 'creole', rst: 'rst', mediawiki: 'mediawiki', pod: 'pod', txt: 'txt',
}

export const isWritableFormat = (f: string): f is WikiFormat => Object.hasOwn(WRITABLE_FORMATS, f)

export interface PagePath { path: string; slug: string; format: string; title: string }

/** A repository path to a page, or null when its extension is not a wiki format. */
export function pageOfPath(path: string): PagePath | null {
  const dot = path.lastIndexOf('.')
  const slash = path.lastIndexOf('/')
  if (dot <= slash + 1) return null
  const format = READ_EXTENSIONS[path.slice(dot + 1).toLowerCase()]
  if (!format) return null
  const slug = path.slice(0, dot)
  return { path, slug, format, title: titleOfSlug(slug) }
}

/** The last part of a slug, with runs of `-` shown as spaces (Gollum's page name). */
export const titleOfSlug = (slug: string) => slug.slice(slug.lastIndexOf('/') + 1).replace(/-+/g, ' ')

/**
 * A title to a slug as GitLab's sluggified_title: trimmed, `..` resolved, no leading `/`, whitespace, `<`, `>` and `+`
 * as `-` (Gollum's cname). Null when what is left cannot be a path inside the repository.
 */
export function slugOfTitle(title: string): string | null {
  const trimmed = title.trim()
  if (!trimmed || trimmed.includes('\0') || trimmed.includes('\\')) return null
  const resolved = posix.normalize(`/${trimmed}`).replace(/^\/+/, '').replace(/\/+$/, '')
  const slug = resolved.split('/').map((part) => part.trim().replace(/[\s<>+]/g, '-')).join('/')
  return isSafeSlug(slug) ? slug : null
}

/**
 * Whether a slug names a path git and every clone can hold: no empty, `.`, `..` or `.git` part, no part starting
 * with a dot (a clone would refuse `.git`-like names), no control characters, each part a file name's length.
 */
export function isSafeSlug(slug: string): boolean {
  if (!slug || slug.length > 1024 || /[\x00-\x1f\x7f\\]/.test(slug)) return false
  return slug.split('/').every((p) => p !== '' && !p.startsWith('.') && Buffer.byteLength(p) <= 240)
}

/**
 * The slug a page gets when retitled: a title without `/` keeps the page's directory, one with `/` is a path from
 * the root, a leading `/` included (GitLab 11's WikiPage#process_title).
 */
export function retitledSlug(currentSlug: string, title: string): string | null {
  const trimmed = title.trim()
  const dir = currentSlug.includes('/') ? currentSlug.slice(0, currentSlug.lastIndexOf('/')) : ''
  return slugOfTitle(trimmed.includes('/') || !dir ? trimmed : `${dir}/${trimmed}`)
}

export const pathOfSlug = (slug: string, format: WikiFormat) => `${slug}.${WRITABLE_FORMATS[format]}`

const IMAGE_OR_VIDEO = /\.(png|jpe?g|gif|bmp|tiff?|ico|webp|svg|mp4|m4v|mov|webm|ogv)$/i

/**
 * The link GitLab answers for an upload (FileMarkdownLinkBuilder): `![name without extension](path)` for images and
 * videos, `[name](path)` for anything else.
 */
export function markdownLink(fileName: string, path: string): string {
  if (!IMAGE_OR_VIDEO.test(fileName)) return `[${fileName}](${path})`
  return `![${fileName.replace(/\.[^.]*$/, '')}](${path})`
}

/**
 * An uploaded file's name as stored: the last part of what the client sent, control characters dropped, cut to 255
 * bytes keeping the extension (CreateAttachmentService). Null when nothing usable is left.
 */
export function attachmentName(original: string): string | null {
  const base = original.split(/[\\/]/).pop()!.replace(/[\x00-\x1f\x7f]/g, '').trim()
  if (!base || base === '.' || base === '..' || base.toLowerCase() === '.git') return null
  if (Buffer.byteLength(base) <= 255) return base
  const dot = base.lastIndexOf('.')
  const ext = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : ''
  let stem = base.slice(0, base.length - ext.length)
  while (Buffer.byteLength(stem + ext) > 255) stem = stem.slice(0, -1)
  return stem + ext
}
