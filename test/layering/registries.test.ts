// The registries are derived from the files that declare them (scripts/registries.mjs): an endpoint group, its
// handlers, a migration, a command or a page declared but not mounted fails here, rather than being silently absent.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import { contract } from '../../src/contract/index.js'
import { COMMANDS } from '../../commands/index.js'
import { ERROR_CODES } from '../../src/core/error-codes.js'
import { HANDLERS } from '../../src/server/handlers.generated.js'
import { ROUTE_GROUPS } from '../../src/server/routes.generated.js'
import { openDatabase } from '../../src/server/store/db.js'
import { registries } from '../../scripts/registries.mjs'

const ROOT = resolve(import.meta.dirname, '../..')
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8')
const tree = (dir: string): string[] => readdirSync(resolve(ROOT, dir), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? tree(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []))
const files = (dir: string, ext: RegExp) => readdirSync(resolve(ROOT, dir)).filter((f) => ext.test(f)).sort()

const scratch = mkdtempSync(join(tmpdir(), 'collab-registries-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('registries', () => {
  it('are written as the directories declare them (node scripts/registries.mjs --check)', () => {
    const checked = spawnSync(process.execPath, ['scripts/registries.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' })
    expect(checked.stderr).toBe('')
    expect(checked.status).toBe(0)
  })

  it('apply every migration file: a new database is at the schema version of the last file', () => {
    const onDisk = files('src/server/store/migrations', /^\d{3}-.*\.(sql|ts)$/)
    const db = openDatabase(join(scratch, 'collab.db'))
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(onDisk.length)
      expect(Number(onDisk.at(-1)!.slice(0, 3))).toBe(onDisk.length)
    } finally {
      db.close()
    }
  })

  it('mount every contract group with one handler per endpoint, and no handlers without endpoints', async () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(contract).sort())
    for (const [group, endpoints] of Object.entries(contract)) {
      expect(Object.keys(endpoints).length, `group ${group} declares no endpoint`).toBeGreaterThan(0)
      const handlers = (await HANDLERS[group as keyof typeof HANDLERS]()) as Record<string, unknown>
      expect(Object.keys(handlers).sort(), `handlers of ${group}`).toEqual(Object.keys(endpoints).sort())
      for (const [name, handler] of Object.entries(handlers)) expect(typeof handler, `${group}.${name}`).toBe('function')
    }
    expect(files('src/contract/endpoints', /\.ts$/).length).toBe(Object.keys(contract).length)
  })

  // In the order of the built server's namespaces (by name), where routes with greedy params are tried in turn.
  it('route every endpoint by the method, path and greedy params its declaration says, groups and endpoints by name', async () => {
    const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    expect(Object.keys(ROUTE_GROUPS)).toEqual(byName(Object.entries(contract)).map(([group]) => group))
    for (const [group, { load, routes }] of Object.entries(ROUTE_GROUPS)) {
      const declared = byName(Object.entries(contract[group as keyof typeof contract]))
        .map(([name, e]) => [name, e.method, e.path, ...(e.greedy?.length ? [e.greedy] : [])])
      expect(routes, `routes of ${group}`).toEqual(declared)
      // The module it imports on the group's first request is the one that declares the group.
      expect(Object.keys(await load()).filter((name) => name in contract[group as keyof typeof contract]).sort(), `module of ${group}`)
        .toEqual(declared.map(([name]) => name).sort())
    }
  })

  it('call a route list stale when a declaration moves an endpoint (node scripts/route-list.mjs --check)', () => {
    const root = join(scratch, 'route-list')
    for (const dir of ['src/contract', 'src/core']) cpSync(resolve(ROOT, dir), join(root, dir), { recursive: true })
    cpSync(resolve(ROOT, 'src/server/routes.generated.ts'), join(root, 'src/server/routes.generated.ts'))
    const check = () => spawnSync(process.execPath, ['scripts/route-list.mjs', '--check', '--root', root], { cwd: ROOT, encoding: 'utf8' })
    expect(check()).toMatchObject({ status: 0, stderr: '' })
    const meta = join(root, 'src/contract/endpoints/meta.ts')
    writeFileSync(meta, readFileSync(meta, 'utf8').replace("path: '/version'", "path: '/versions'"))
    expect(check()).toMatchObject({ status: 1, stderr: 'src/server/routes.generated.ts is stale: run node scripts/registries.mjs\n' })
  })

  it('reach every command directory and file of commands/ that registers, each through a load() that registers', async () => {
    const dirs = readdirSync(resolve(ROOT, 'commands'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
    const verbs = files('commands', /\.ts$/).filter((f) => /^export function register\(/m.test(read(`commands/${f}`))).map((f) => f.slice(0, -3))
    expect(Object.keys(COMMANDS).filter((name) => name !== 'ci').sort()).toEqual([...dirs, ...verbs].sort())
    expect(COMMANDS.ci.summary).toBe("Alias of 'collab pipeline'")
    for (const { load } of Object.values(COMMANDS)) expect(typeof (await load()).register).toBe('function')
  })

  it('catalogue only error codes something raises (GIT_<KIND> ones from the kinds of git errors)', () => {
    const sources = ['src', 'commands'].flatMap((dir) => tree(dir)).filter((f) => !f.endsWith('error-codes.ts')).map(read).join('\n')
    const kinds = /GitErrorKind = ([^\n]+)/.exec(read('src/server/git/types.ts'))![1]
    const unused = Object.keys(ERROR_CODES).filter((code) => !sources.includes(`'${code}'`) && !(code.startsWith('GIT_') && kinds.includes(`'${code.slice(4).toLowerCase()}'`)))
    expect(unused).toEqual([])
  })

  it('route every page of web/pages/: each is named by the routes a module exports, or called by a page that is', () => {
    expect(unroutedPages()).toEqual([])
  })
})

/** A tree of its own for the generator: each case writes the files named, then reads what the generator finds. */
function fixture(name: string, written: Record<string, string>) {
  const root = join(scratch, name)
  const base: Record<string, string> = {
    'src/contract/endpoints/merge-request-actions.ts': "export const merge = defineEndpoint({ method: 'PUT', path: '/x' })\n",
    'src/server/handlers/merge-requests.ts': 'export const mergeRequestActionHandlers = { merge } satisfies Handlers<typeof contract.mergeRequestActions>\n',
    'src/server/store/migrations/001-init.sql': 'CREATE TABLE t (id INTEGER);\n',
    'src/server/store/migrations/002-rebuild.ts': 'export default () => {}\n',
    'commands/issue/index.ts': "export const summary = 'Work with issues'\nexport const aliases = ['issues']\nexport function register() {}\n",
    'commands/api.ts': "export const summary = \"Call the API's endpoints\"\nexport function register() {}\n",
    'commands/complete.ts': 'export function complete() {}\n',
    'src/server/web/pages/issues.ts': "import { pager } from './parts.js'\nexport const routes = [{ method: 'GET', rest: /^issues$/, page: (ctx, req, res, p) => issuesPage(ctx, req, res, p) }]\n"
      + 'export async function issuesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse, project: string) {}\n',
    'src/server/web/pages/parts.ts': "export const pager = () => ''\n",
  }
  for (const [path, text] of Object.entries({ ...base, ...written })) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return registries(root)
}

describe('the registry generator', () => {
  it('names a group by its file, finds its handlers by the group they satisfy, numbers migrations, copies summaries', () => {
    const { files: written, problems } = fixture('whole', {})
    expect(problems).toEqual([])
    expect(written['src/contract/endpoints.generated.ts']).toContain("export * as mergeRequestActions from './endpoints/merge-request-actions.js'\n")
    expect(written['src/server/handlers.generated.ts']).toContain("  mergeRequestActions: () => import('./handlers/merge-requests.js').then((m) => m.mergeRequestActionHandlers),\n")
    expect(written['src/server/store/migrations.generated.ts']).toContain("import m002 from './migrations/002-rebuild.js'\n")
    expect(written['src/server/store/migrations.generated.ts']).toContain('  m001, m002,\n')
    expect(written['src/server/web/pages.generated.ts']).toContain("import { routes as issues } from './pages/issues.js'\n")
    expect(written['src/server/web/pages.generated.ts']).not.toContain('parts')
    expect(written['commands/commands.generated.ts'].split('\n').filter((l) => l.startsWith('  '))).toEqual([
      "  api: { summary: \"Call the API's endpoints\", load: () => import('./api.js') },",
      "  issue: { summary: 'Work with issues', load: () => import('./issue/index.js') },",
      `  issues: { summary: "Alias of 'collab issue'", load: () => import('./issue/index.js') },`,
    ])
  })

  it.each([
    ['an endpoint group without handlers', { 'src/contract/endpoints/todos.ts': '' },
      'contract group todos (endpoints/todos.ts) has no handlers: export them from src/server/handlers/ with `satisfies Handlers<typeof contract.todos>`'],
    ['handlers of a group no endpoint module declares', { 'src/server/handlers/todos.ts': 'export const todoHandlers = {} satisfies Handlers<typeof contract.todos>\n' },
      'handlers/todos.ts serves contract group todos, which no module of src/contract/endpoints/ declares'],
    ['two handler objects for one group', { 'src/server/handlers/more.ts': 'export const more = {} satisfies Handlers<typeof contract.mergeRequestActions>\n' },
      'handlers/more.ts (more) and handlers/merge-requests.ts (mergeRequestActionHandlers) both serve contract group mergeRequestActions'],
    ['a gap in the migrations', { 'src/server/store/migrations/004-later.sql': '' },
      'store/migrations/004-later.sql should be number 003: migrations are numbered from 001 with no gap or repeat'],
    ['a misnamed migration', { 'src/server/store/migrations/3-later.sql': '' }, 'store/migrations/3-later.sql is not named NNN-what-it-does.sql (or .ts)'],
    ['a command directory without index.ts', { 'commands/wiki/list.ts': 'export function register() {}\n' },
      'commands/wiki/ has no index.ts: a directory of commands/ is a top-level command'],
    ['a command without a summary', { 'commands/wiki/index.ts': 'export function register() {}\n' },
      'commands/wiki/index.ts exports no `summary` string literal (its line in collab --help)'],
    ['a command directory that registers nothing', { 'commands/wiki/index.ts': "export const summary = 'Wikis'\n" }, 'commands/wiki/index.ts exports no register(command, rt)'],
  ])('reports %s', (what, written, problem) => {
    expect(fixture(what.replace(/\W+/g, '-'), written).problems).toEqual([problem])
  })

  it('finds a page function that no route names, also when its module has routes', () => {
    fixture('unrouted', {
      'src/server/web/pages/issues.ts': "export const routes = []\nexport async function issuesPage(ctx: WebContext, req: RouteRequest, res: ServerResponse) {}\n",
    })
    fixture('routed', {})
    expect(unroutedPages(join(scratch, 'unrouted'))).toEqual(['issues#issuesPage'])
    expect(unroutedPages(join(scratch, 'routed'))).toEqual([])
  })
})

/**
 * A page is an exported function of web/pages/ taking (ctx: WebContext, req: RouteRequest, res: ServerResponse, …). It is
 * reached when a module's `routes` names it (its own module's or one importing it), or when a module holding a reached
 * page imports it (the merge request list serves the overview page). Answers `module#function` for each unreached one.
 */
function unroutedPages(root = ROOT): string[] {
  const dir = join(root, 'src/server/web/pages')
  const modules = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3))
  const pages = new Map<string, string[]>()
  const imports = new Map<string, { from: string; name: string }[]>()
  const routed = new Set<string>()
  for (const module of modules) {
    const source = ts.createSourceFile(module, readFileSync(join(dir, `${module}.ts`), 'utf8'), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS)
    const imported = source.statements.filter(ts.isImportDeclaration).flatMap((d) => {
      const from = (d.moduleSpecifier as ts.StringLiteral).text.replace(/^\.\//, '').replace(/\.js$/, '')
      const named = d.importClause?.namedBindings
      return named && ts.isNamedImports(named) ? named.elements.map((e) => ({ from, local: e.name.text, name: (e.propertyName ?? e.name).text })) : []
    })
    imports.set(module, imported)
    const found: string[] = []
    for (const st of source.statements) {
      if (!ts.canHaveModifiers(st) || !ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue
      const decl = ts.isVariableStatement(st) ? st.declarationList.declarations[0] : undefined
      if (decl?.name.getText(source) === 'routes') {
        const named = new Set<string>()
        const visit = (node: ts.Node): void => {
          if (ts.isIdentifier(node)) named.add(node.text)
          ts.forEachChild(node, visit)
        }
        visit(decl.initializer!)
        for (const name of named) routed.add(`${module}#${name}`)
        for (const i of imported) if (named.has(i.local)) routed.add(`${i.from}#${i.name}`)
      }
      const fn = ts.isFunctionDeclaration(st) ? st : decl?.initializer
      if (!fn || !(ts.isFunctionDeclaration(fn) || ts.isArrowFunction(fn))) continue
      const types = fn.parameters.slice(0, 3).map((p) => p.type?.getText(source))
      if (types.join() === 'WebContext,RouteRequest,ServerResponse') found.push(ts.isFunctionDeclaration(st) ? st.name!.text : decl!.name.getText(source))
    }
    pages.set(module, found)
  }
  const reached = new Set([...pages].flatMap(([module, names]) => names.map((name) => `${module}#${name}`)).filter((page) => routed.has(page)))
  for (let grew = true; grew;) {
    grew = false
    for (const module of new Set([...reached].map((page) => page.split('#')[0]))) {
      for (const { from, name } of imports.get(module)!) {
        if (pages.get(from)?.includes(name) && !reached.has(`${from}#${name}`)) {
          reached.add(`${from}#${name}`)
          grew = true
        }
      }
    }
  }
  return [...pages].flatMap(([module, names]) => names.map((name) => `${module}#${name}`)).filter((page) => !reached.has(page))
}
