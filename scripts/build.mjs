// Bundles the CLI (and, as lazily loaded chunks, the server) so `collab --version` parses one small file.
import { build } from 'esbuild'
import { rm, readFile } from 'node:fs/promises'

const root = new URL('..', import.meta.url)
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'))
await rm(new URL('dist', root), { recursive: true, force: true })
await build({
  absWorkingDir: root.pathname,
  entryPoints: { cli: 'commands/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __COLLAB_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  loader: { '.sql': 'text' },
})
