// Bundles the CLI (and, as lazily loaded chunks, the server) so `collab --version` parses one small file.
import { build } from 'esbuild'
import { mkdir, rm, readFile, writeFile } from 'node:fs/promises'

const root = new URL('..', import.meta.url)
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'))
await rm(new URL('dist', root), { recursive: true, force: true })

const common = { absWorkingDir: root.pathname, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' }

/** The contract's `name -> { method, path }` table, computed once here from the endpoint declarations. */
async function routeTable() {
  const out = await build({ ...common, entryPoints: ['src/contract/routes.ts'], write: false })
  // Written inside the package so the bundle's `zod` import resolves from node_modules.
  const file = new URL('dist/.routes.mjs', root)
  await mkdir(new URL('dist', root), { recursive: true })
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

await build({
  ...common,
  entryPoints: { cli: 'commands/index.ts' },
  outdir: 'dist',
  splitting: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __COLLAB_VERSION__: JSON.stringify(pkg.version) },
  loader: { '.sql': 'text' },
  plugins: [contractRoutes],
})
