// Loads a built bundle (dist/cli.cjs, dist/server.cjs) through V8's code cache when the build left one for this node:
// compiling a bundle is a tenth of a short command's run and a third of the server's start. A cache from another node
// version is rejected and the file compiles as usual.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { Script } from 'node:vm'

export interface LoadedBundle<T> {
  exports: T
  /** The code cache of everything compiled so far (the build writes it after warming the common paths). */
  codeCache(): Buffer
}

export interface CompiledBundle<T> {
  /** Runs the bundle's modules and answers its exports. */
  run(): T
  codeCache(): Buffer
}

/**
 * `nameAs` names the script in stacks when the code cache is made (the build warms its staging copy): V8 keeps the name
 * the cache was made under, whatever the file is called when the cache is read.
 */
export function compileBundle<T>(file: string, nameAs = file): CompiledBundle<T> {
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(`${file}.cache`)
  } catch {}
  // Node's own CommonJS wrapper, on the file's first line so line numbers in stacks stay true.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`
  const script = new Script(wrapped, { filename: nameAs, cachedData })
  return {
    run() {
      const module = { exports: {} as T }
      script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
      return module.exports
    },
    codeCache: () => script.createCachedData(),
  }
}

export function loadBundle<T>(file: string, nameAs = file): LoadedBundle<T> {
  const bundle = compileBundle<T>(file, nameAs)
  return { exports: bundle.run(), codeCache: bundle.codeCache }
}

/**
 * Keeps V8's young generation at its first size until the returned function is called. Setting up a bundle's modules
 * allocates tens of megabytes that all live on, and V8 reads a young generation whose objects all survive as one too
 * small for the program: it doubles it at each collection, up to 16 MB a semi-space, 32 MB of memory that an idle
 * server then holds for good. After the release V8 sizes it by what the running program allocates, as it always does
 * (it reads the growth factor at each collection; 2 is its default). Call it after compiling a bundle, not before: V8
 * takes a code cache only under the flags it was made with.
 */
export function holdYoungGeneration(): () => void {
  setFlagsFromString('--semi-space-growth-factor=1')
  return () => setFlagsFromString('--semi-space-growth-factor=2')
}

export interface LoadedCli {
  main(argv: string[]): Promise<number>
  codeCache(): Buffer
}

export function loadCli(dir: string, nameAs = dir): LoadedCli {
  const cli = loadBundle<{ main: LoadedCli['main'] }>(resolve(dir, 'cli.cjs'), resolve(nameAs, 'cli.cjs'))
  return { main: cli.exports.main, codeCache: cli.codeCache }
}
