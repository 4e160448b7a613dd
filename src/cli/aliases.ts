// gh's aliases: `collab alias set co 'mr checkout'` stores a name in config.json; `collab co 5` is expanded before the
// command line is parsed. `$1`…`$9` take the arguments in place, the rest are appended; an expansion starting with `!`
// runs through sh with the arguments as "$@".
import type { ConfigFile } from './config.js'
import type { IO } from './io.js'
import { usageError } from './errors.js'

export type Aliases = Record<string, string>

export const aliasesOf = (config: ConfigFile): Aliases =>
  config.aliases !== null && typeof config.aliases === 'object' ? { ...config.aliases } : {}

/** Words as sh splits them, for the quoting people write by hand: '…', "…" (with \" and \\), and \ outside quotes. */
export function splitWords(text: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: '"' | "'" | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote === "'") {
      if (c === "'") quote = undefined
      else word += c
    } else if (quote === '"') {
      if (c === '"') quote = undefined
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i]
      else word += c
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else if (c === "'" || c === '"') {
      word ??= ''
      quote = c
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i]
    } else {
      word = (word ?? '') + c
    }
  }
  if (quote) throw usageError(`unterminated ${quote} in '${text}'`)
  if (word !== undefined) words.push(word)
  return words
}

export type Expansion = { argv: string[] } | { shell: string; args: string[] }

/** The command line an alias stands for: `$N` placeholders filled from `args`, the unused ones appended. */
export function expandAlias(expansion: string, args: string[]): Expansion {
  if (expansion.startsWith('!')) return { shell: expansion.slice(1), args }
  const used = new Set<number>()
  const argv = splitWords(expansion).map((word) => word.replace(/\$(\d)/g, (_, n: string) => {
    used.add(Number(n))
    return args[Number(n) - 1] ?? ''
  }))
  return { argv: [...argv, ...args.filter((_, i) => !used.has(i + 1))] }
}

/**
 * The command line to parse when argv[0] names an alias (config.json is read only then), or the exit code of a shell
 * alias that has run. Anything else comes back unchanged, for commander to judge.
 */
export async function applyAlias(argv: string[], io: IO): Promise<string[] | number> {
  const { configDirFrom, readConfig } = await import('./config.js')
  const expansion = aliasesOf(await readConfig(await configDirFrom(io.env)))[argv[0]]
  if (expansion === undefined) return argv
  const expanded = expandAlias(expansion, argv.slice(1))
  if ('argv' in expanded) return expanded.argv
  const { spawn } = await import('node:child_process')
  return new Promise<number>((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', expanded.shell, argv[0], ...expanded.args], { stdio: 'inherit', env: io.env as NodeJS.ProcessEnv, cwd: io.cwd })
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + 2 : 1)))
  })
}
