// Loads the built CLI (dist/cli.cjs) through V8's code cache when the build left one for this node: compiling the
// bundle is a tenth of a short command's run. A cache from another node version is rejected and the file compiles as usual.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { Script } from 'node:vm'

export interface LoadedCli {
  main(argv: string[]): Promise<number>
  /** The code cache of everything compiled so far (the build writes it after warming the common paths). */
  codeCache(): Buffer
}

export function loadCli(dir: string): LoadedCli {
  const file = resolve(dir, 'cli.cjs')
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(`${file}.cache`)
  } catch {}
  // Node's own CommonJS wrapper, on the file's first line so line numbers in stacks stay true.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`
  const script = new Script(wrapped, { filename: file, cachedData })
  const module = { exports: {} as { main: LoadedCli['main'] } }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dir)
  return { main: module.exports.main, codeCache: () => script.createCachedData() }
}
