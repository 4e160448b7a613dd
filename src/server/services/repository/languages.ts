// Languages of a project's default branch by byte share: at most five, percentages rounded to two decimals.
import { extname, basename } from 'node:path'
import type { RequestContext } from '../../context.js'
import { listBlobSizes } from '../../git/files.js'
import { repositoryDir } from '../../git/repository.js'
import type { ProjectView } from '../../store/projects.js'

const BY_EXTENSION: Record<string, string> = {
  '.ts': 'TypeScript', '.tsx': 'TypeScript', '.mts': 'TypeScript', '.cts': 'TypeScript',
  '.js': 'JavaScript', '.jsx': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript',
  '.py': 'Python', '.rb': 'Ruby', '.go': 'Go', '.rs': 'Rust', '.java': 'Java', '.kt': 'Kotlin', '.kts': 'Kotlin',
  '.c': 'C', '.h': 'C', '.cc': 'C++', '.cpp': 'C++', '.cxx': 'C++', '.hpp': 'C++', '.hh': 'C++', '.cs': 'C#',
  '.swift': 'Swift', '.m': 'Objective-C', '.php': 'PHP', '.pl': 'Perl', '.pm': 'Perl', '.sh': 'Shell', '.bash': 'Shell',
  '.zsh': 'Shell', '.fish': 'fish', '.ps1': 'PowerShell', '.lua': 'Lua', '.r': 'R', '.scala': 'Scala', '.clj': 'Clojure',
  '.ex': 'Elixir', '.exs': 'Elixir', '.erl': 'Erlang', '.hs': 'Haskell', '.ml': 'OCaml', '.fs': 'F#', '.dart': 'Dart',
  '.vue': 'Vue', '.svelte': 'Svelte', '.html': 'HTML', '.htm': 'HTML', '.css': 'CSS', '.scss': 'SCSS', '.sass': 'Sass',
  '.less': 'Less', '.sql': 'PLpgSQL', '.tf': 'HCL', '.nix': 'Nix', '.zig': 'Zig', '.jl': 'Julia', '.groovy': 'Groovy',
  '.makefile': 'Makefile', '.mk': 'Makefile', '.cmake': 'CMake', '.dockerfile': 'Dockerfile', '.vim': 'Vim Script',
  '.tex': 'TeX', '.elm': 'Elm', '.nim': 'Nim', '.v': 'V', '.asm': 'Assembly', '.s': 'Assembly',
}
const BY_NAME: Record<string, string> = { Makefile: 'Makefile', Dockerfile: 'Dockerfile', Rakefile: 'Ruby', Gemfile: 'Ruby', 'CMakeLists.txt': 'CMake' }

/** Vendored and generated files do not count, as in GitLab's linguist rules. */
const IGNORED = /(^|\/)(node_modules|vendor|dist|build|third_party)\/|\.min\.(js|css)$/

// Own keys only: a file named `constructor` must not find Object's constructor as its language.
const own = (table: Record<string, string>, key: string) => (Object.hasOwn(table, key) ? table[key] : undefined)

export function languageOf(path: string): string | undefined {
  return own(BY_NAME, basename(path)) ?? own(BY_EXTENSION, extname(path).toLowerCase())
}

export function languageShares(files: { path: string; size: number }[]): Record<string, number> {
  const bytes = new Map<string, number>()
  for (const f of files) {
    if (IGNORED.test(f.path)) continue
    const lang = languageOf(f.path)
    if (lang) bytes.set(lang, (bytes.get(lang) ?? 0) + f.size)
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0)
  if (!total) return {}
  return Object.fromEntries(
    [...bytes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5)
      .map(([lang, n]) => [lang, Math.round((n / total) * 10000) / 100]),
  )
}

export async function projectLanguages(ctx: RequestContext, p: ProjectView) {
  if (p.empty_repo || !p.default_branch) return {}
  return languageShares(await listBlobSizes(repositoryDir(ctx.app.layout.repositories, p.id), p.default_branch))
}
