// Builds dist/: the CLI as one CommonJS file (start-up reads one file and requires each dependency only when the code
// that needs it first runs) and the server as its own bundle, which only `collab serve` loads.
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { mkdir, rename, rm, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeRegistries } from './registries.mjs'
import { writeRouteList } from './route-list.mjs'

const root = new URL('..', import.meta.url)
// The contract's groups, their handlers, the migrations and the commands, as their directories declare them.
writeRegistries()
await writeRouteList()
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'))
// Built beside dist/ and swapped in at the end: a test or command running during a build never finds dist/ half
// written or missing (several builds may run at once on a shared checkout).
const staging = `dist.build-${process.pid}`
await rm(new URL(staging, root), { recursive: true, force: true })
await mkdir(new URL(staging, root))
// A failed build leaves nothing behind (after success the directory is dist/).
process.on('exit', () => rmSync(new URL(staging, root), { recursive: true, force: true }))

const common = {
  absWorkingDir: root.pathname, bundle: true, platform: 'node', target: 'node20', logLevel: 'warning',
  define: { __COLLAB_VERSION__: JSON.stringify(pkg.version) }, loader: { '.sql': 'text' },
}

/** The contract's `name -> { method, path }` table, computed once here from the endpoint declarations. */
async function routeTable() {
  const out = await build({ ...common, format: 'esm', packages: 'external', entryPoints: ['src/contract/routes.ts'], write: false })
  // Written inside the package so the bundle's `zod` import resolves from node_modules.
  const file = new URL(`${staging}/.routes.mjs`, root)
  await writeFile(file, out.outputFiles[0].text)
  try {
    return (await import(file.href)).ROUTES
  } finally {
    await rm(file)
  }
}

// The CLI takes the table's value instead of the module that derives it: no zod, no declarations at start-up.
const routes = JSON.stringify(await routeTable())
const contractRoutes = {
  name: 'contract-routes',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]contract[\\/]routes\.ts$/ }, () => ({ contents: `export const ROUTES = ${routes}`, loader: 'js' }))
  },
}

// `collab serve` imports the server bundle at run time instead of carrying it in the CLI's file; `collab backup --data`
// and `collab backup restore` likewise import the backup bundle.
const serverBundle = {
  name: 'server-bundle',
  setup(b) {
    b.onResolve({ filter: /[\\/]server[\\/]serve\.js$/ }, () => ({ path: './server-launch.cjs', external: true }))
    b.onResolve({ filter: /[\\/]server[\\/]backup\.js$/ }, () => ({ path: './backup.js', external: true }))
  },
}

/**
 * Writes each character past ASCII in a built bundle as a \u escape. V8 keeps a script's source text while the script
 * lives, and a single character past Latin-1 (a comment's dash, a page's middle dot) stores all of it two bytes a
 * character: 4 MB more for the server. esbuild escapes string literals already but leaves comments, regular expressions
 * and tagged templates as written; in each of these the escape means the same character (no bundle reads a template's
 * raw text), and one after a backslash, where it would not, fails the build. On the few lines that change, columns
 * after the character are off in the source map by five a character.
 */
async function asciiOnly(file) {
  const url = new URL(file, root)
  const text = await readFile(url, 'utf8')
  await writeFile(url, text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, char) => {
    if (slashes.length % 2) throw new Error(`${file}: an escaped non-ASCII character (${JSON.stringify(char)}) cannot be rewritten`)
    return `${slashes}\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  }))
}

// Small pure-JS packages every command uses are inlined; the rest load from node_modules when first needed.
const INLINED = new Set(['commander', 'env-paths', 'string-width'])

await build({
  ...common,
  entryPoints: ['commands/index.ts'],
  outfile: `${staging}/cli.cjs`,
  format: 'cjs',
  external: Object.keys(pkg.dependencies).filter((name) => !INLINED.has(name)),
  sourcemap: 'linked',
  plugins: [contractRoutes, serverBundle],
  // The bundle runs from V8's code cache (src/cli/launch.ts), where import() has no loader to call: require() instead,
  // which loads ES-module packages (chalk, execa, the server bundle) since node 20.19.
  supported: { 'dynamic-import': false },
})
await asciiOnly(`${staging}/cli.cjs`)

await build({ ...common, entryPoints: ['src/cli/launch.ts'], outfile: `${staging}/launch.cjs`, format: 'cjs' })

// Warms the paths every command takes (the command tree, a group's verbs, parsing, help, a request: to port 0,
// where nothing listens) and keeps V8's code for them, under the name the file has once dist/ is swapped in (stacks
// show the name the cache was made under).
const warm = `
  const cli = require('./${staging}/launch.cjs').loadCli('${staging}', 'dist')
  const runs = [['issue', 'list', '--help'], ['project', 'list', '--help'], ['commit', 'list', '--help'], ['--help'],
    ['issue', 'list', '--json'], ['project', 'view', '--json'], ['mr', 'list', '--json']]
  runs.reduce((p, argv) => p.then(() => cli.main(argv)), Promise.resolve())
    .then(() => require('node:fs').writeFileSync('${staging}/cli.cjs.cache', cli.codeCache()))`
const env = { ...process.env, COLLAB_HOST: 'http://127.0.0.1:0', COLLAB_TOKEN: 'warm-up', COLLAB_PROJECT: 'warm/up', NO_COLOR: '1' }
const warmed = spawnSync(process.execPath, ['-e', warm], { cwd: root.pathname, env, stdio: ['ignore', 'ignore', 'ignore'] })
if (warmed.status !== 0) throw new Error('warming the CLI for its code cache failed')

const SERVER_INLINED = new Set(['ansi_up', 'env-paths', 'zod', 'isomorphic-git', 'yaml', 'find-my-way', 'qs', 're2js', 'diff', 'node-diff3', 'yauzl'])

// The server as CommonJS, loaded like the CLI through V8's code cache (compiling the bundle was a third of the start of
// `collab serve`), requiring its packages as CommonJS (an ES module importing CommonJS parses each package to find its
// exports). import.meta.url is the file's URL, as the ES module had it.
await build({
  ...common,
  entryPoints: ['src/server/serve.ts'],
  outfile: `${staging}/server.cjs`,
  format: 'cjs',
  // The packages every start loads are inlined, so the code cache holds them too (compiling them was a tenth of the
  // start); the native one and those loaded on first use stay outside. isomorphic-git, yaml and yauzl, imported on first
  // use, are inlined all the same: outside, a start's compile and run of the bundle measured no faster (~1 ms of 110,
  // within the noise), and their first use would read and compile them from node_modules.
  external: Object.keys(pkg.dependencies).filter((name) => !SERVER_INLINED.has(name)),
  sourcemap: 'linked',
  supported: { 'dynamic-import': false },
  define: { ...common.define, 'import.meta.url': '__collab_module_url' },
  banner: { js: "const __collab_module_url = require('node:url').pathToFileURL(__filename).href;" },
})
await asciiOnly(`${staging}/server.cjs`)

/**
 * An empty database with every migration applied, as openDatabase leaves a new file: a fresh data directory starts from
 * a copy (src/server/boot.ts), one file written instead of forty migrations run (test/server/store/schema-image.test.ts
 * compares the two).
 */
async function migratedDatabase() {
  const out = await build({ ...common, entryPoints: ['src/server/store/db.ts'], format: 'cjs', packages: 'external', write: false })
  const file = new URL(`${staging}/.db.cjs`, root).pathname
  await writeFile(file, out.outputFiles[0].text)
  const dir = mkdtempSync(join(tmpdir(), 'collab-schema-'))
  try {
    const { openDatabase, closeDatabase } = createRequire(file)(file)
    closeDatabase(openDatabase(join(dir, 'collab.db')))
    return readFileSync(join(dir, 'collab.db'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
    await rm(file)
  }
}
await writeFile(new URL(`${staging}/schema.db`, root), await migratedDatabase(), { mode: 0o644 })

await writeFile(new URL(`${staging}/server-launch.cjs`, root), `'use strict'
// The server bundle, loaded through its code cache, with V8's young generation held at its first size until the server
// has started (src/cli/launch.ts says why), and the build's migrated database for a data directory without one.
const { join } = require('node:path')
const launch = require('./launch.cjs')
const bundle = launch.compileBundle(join(__dirname, 'server.cjs'))
const release = launch.holdYoungGeneration()
const server = bundle.run()
const migratedDatabase = join(__dirname, 'schema.db')
module.exports = { ...server, startServer: (options) => server.startServer({ migratedDatabase, ...options }).finally(release) }
`)

// Warms the server's start (boot, a fresh data directory, mounting the routes, the first requests) and keeps V8's code
// for it, named as dist/server.cjs like the CLI's. A contract group is imported on its first request (mount.ts): the
// project and commit groups, which clients ask first (a 404 on the empty instance), start from the cache too.
const WARM_PATHS = ['/api/v4/version', '/api/v4/projects/1', '/api/v4/projects/1/repository/commits']
const warmServer = `
  const { mkdtempSync, rmSync, writeFileSync } = require('node:fs')
  const { join } = require('node:path')
  const server = require('./${staging}/launch.cjs').loadBundle(join(process.cwd(), '${staging}', 'server.cjs'), join(process.cwd(), 'dist', 'server.cjs'))
  const dataDir = mkdtempSync(join(require('node:os').tmpdir(), 'collab-warm-'))
  server.exports.startServer({ host: '127.0.0.1', port: 0, dataDir, log: () => {}, runner: { enabled: false }, migratedDatabase: join(process.cwd(), '${staging}', 'schema.db') })
    .then(async (s) => {
      for (const path of ${JSON.stringify(WARM_PATHS)}) await fetch(s.url + path, { headers: { 'private-token': s.rootToken } }).then((r) => r.text())
      await s.close()
      rmSync(dataDir, { recursive: true, force: true })
      writeFileSync('${staging}/server.cjs.cache', server.codeCache())
    })`
const warmedServer = spawnSync(process.execPath, ['-e', warmServer], { cwd: root.pathname, stdio: ['ignore', 'ignore', 'inherit'] })
if (warmedServer.status !== 0) throw new Error('warming the server for its code cache failed')

await build({ ...common, entryPoints: ['src/server/backup.ts'], outfile: `${staging}/backup.js`, format: 'esm', packages: 'external', sourcemap: 'linked' })

const old = `dist.old-${process.pid}`
await rename(new URL('dist', root), new URL(old, root)).catch((err) => {
  if (err.code !== 'ENOENT') throw err
})
await rename(new URL(staging, root), new URL('dist', root))
await rm(new URL(old, root), { recursive: true, force: true })
