import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

export default defineConfig({
  define: { __COLLAB_VERSION__: JSON.stringify(pkg.version) },
  plugins: [
    {
      // Migrations are .sql files; esbuild inlines them as text for the build, this does the same for tests.
      name: 'sql-as-text',
      transform(code, id) {
        if (id.endsWith('.sql')) return { code: `export default ${JSON.stringify(code)}`, map: null }
      },
    },
  ],
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds for a test that hangs, not speed targets: on a 2-core machine under the load of other runs, tests doing real
    // work (dozens of git-backed requests, CLI processes, a runner) took more than 20 s that take 5 s alone.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    // Two workers on two cores: much of a test waits on git, the built CLI or a runner process, so the second core
    // would idle under vitest's default of cores - 1 (measured: 519 s for the suite against 691 s with one worker).
    maxWorkers: 2,
    // A worker keeps the modules it imported between files instead of importing the server anew for each: importing
    // was most of a file's time (issues and merge requests: 42 s isolated, 25 s not). Tests share no module state
    // that matters: every server, database and clock is made per file, and no test mocks a module.
    isolate: false,
  },
})
