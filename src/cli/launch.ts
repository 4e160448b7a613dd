// Loads a built bundle (dist/cli.cjs, dist/server.cjs) through V8's code cache when the build left one for this node:
// compiling a bundle is a tenth of a short command's run and a third of the server's start. A cache from another node
// version is rejected and the file compiles as usual.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { Script } from 'node:vm'

export interface LoadedBundle<T> {
  exports: T
  /** The code cache of everything compiled so far (the build writes it after warming the common paths). */
  codeCache(): Buffer
}

export function loadBundle<T>(file: string): LoadedBundle<T> {
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(`${file}.cache`)
  } catch {}
  // Node's own CommonJS wrapper, on the file's first line so line numbers in stacks stay true.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`
  const script = new Script(wrapped, { filename: file, cachedData })
  const module = { exports: {} as T }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  return { exports: module.exports, codeCache: () => script.createCachedData() }
}

export interface LoadedCli {
  main(argv: string[]): Promise<number>
  codeCache(): Buffer
}

export function loadCli(dir: string): LoadedCli {
  const cli = loadBundle<{ main: LoadedCli['main'] }>(resolve(dir, 'cli.cjs'))
  return { main: cli.exports.main, codeCache: cli.codeCache }
}
