// The lists the house keeps by hand are checked against what exists on disk: a migration, an endpoint group, a command
// group or a page module written but not registered fails here, rather than being silently absent from the product.
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { contract } from '../../src/contract/index.js'
import { COMMANDS } from '../../commands/index.js'
import { ERROR_CODES } from '../../src/core/error-codes.js'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8')
const tree = (dir: string): string[] => readdirSync(resolve(ROOT, dir), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? tree(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []))
const files = (dir: string, ext: RegExp) => readdirSync(resolve(ROOT, dir)).filter((f) => ext.test(f)).sort()

describe('registries', () => {
  it('apply every migration file, in its numbered order, with no number missing or repeated', () => {
    const onDisk = files('src/server/store/migrations', /^\d{3}-.*\.(sql|ts)$/).map((f) => f.replace(/\.ts$/, '.js'))
    expect(onDisk.map((f, i) => Number(f.slice(0, 3)) - i)).toEqual(onDisk.map(() => 1))
    const db = read('src/server/store/db.ts')
    const imported = [...db.matchAll(/^import (m\d{3}) from '\.\/migrations\/([^']+)'$/gm)].map((m) => [m[1], m[2]])
    expect(imported.map(([, file]) => file)).toEqual(onDisk)
    const listed = /const MIGRATIONS: Migration\[\] = \[([^\]]*)\]/.exec(db)![1].split(',').map((s) => s.trim()).filter(Boolean)
    expect(listed).toEqual(imported.map(([name]) => name))
  })

  it('mount every endpoint module of the contract, each under one group', () => {
    const index = read('src/contract/index.ts')
    const modules = files('src/contract/endpoints', /\.ts$/).map((f) => f.replace(/\.ts$/, '')).sort()
    const imported = [...index.matchAll(/^import \* as (\w+) from '\.\/endpoints\/([\w-]+)\.js'$/gm)]
    expect(imported.map((m) => m[2]).sort()).toEqual(modules)
    for (const [, name] of imported) expect(Object.keys(contract), `endpoint module ${name} is imported but not in contract`).toContain(name)
    for (const [group, endpoints] of Object.entries(contract)) expect(Object.keys(endpoints).length, `group ${group} declares no endpoint`).toBeGreaterThan(0)
  })

  it('register every command group directory', () => {
    const dirs = readdirSync(resolve(ROOT, 'commands'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
    const loaded = new Set([...read('commands/index.ts').matchAll(/import\('\.\/([\w-]+)\/index\.js'\)/g)].map((m) => m[1]))
    expect(dirs.filter((d) => !loaded.has(d))).toEqual([])
    expect(Object.keys(COMMANDS).length).toBeGreaterThanOrEqual(dirs.length)
  })

  it('catalogue only error codes something raises (GIT_<KIND> ones from the kinds of git errors)', () => {
    const sources = ['src', 'commands'].flatMap((dir) => tree(dir)).filter((f) => !f.endsWith('error-codes.ts')).map(read).join('\n')
    const kinds = /GitErrorKind = ([^\n]+)/.exec(read('src/server/git/types.ts'))![1]
    const unused = Object.keys(ERROR_CODES).filter((code) => !sources.includes(`'${code}'`) && !(code.startsWith('GIT_') && kinds.includes(`'${code.slice(4).toLowerCase()}'`)))
    expect(unused).toEqual([])
  })

  it('route every web page module', () => {
    const routes = read('src/server/web/routes.ts')
    // Modules the pages share (parts, diff, highlight, head) are reached through the pages that use them.
    const shared = new Set(['parts', 'diff', 'highlight', 'merge-request-head'])
    const pages = files('src/server/web/pages', /\.ts$/).map((f) => f.replace(/\.ts$/, '')).filter((p) => !shared.has(p))
    const missing = pages.filter((p) => !routes.includes(`from './pages/${p}.js'`) && !pagesImporting(p))
    expect(missing).toEqual([])
  })
})

/** Whether a routed page module imports this one (the overview page is reached through the merge request list). */
function pagesImporting(page: string): boolean {
  const routes = read('src/server/web/routes.ts')
  return files('src/server/web/pages', /\.ts$/).some((f) => routes.includes(`from './pages/${f.replace(/\.ts$/, '')}.js'`) && read(`src/server/web/pages/${f}`).includes(`from './${page}.js'`))
}
