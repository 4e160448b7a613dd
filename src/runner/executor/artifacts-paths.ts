// Which files of a job's work dir go into its artifacts: `paths` globs, `untracked`, `exclude`; nothing outside the dir.
import type { Stats } from 'node:fs'
import { lstat, readdir, realpath, stat } from 'node:fs/promises'
import { join, posix, sep } from 'node:path'
import picomatch from 'picomatch'
import type { RunnerJobArtifactsSpec } from '../../contract/entities/runner-job.js'
import { expandLikeRunner } from './variables.js'

export interface ArtifactSource {
  /** The path inside the zip (forward slashes, relative to the work dir). */
  name: string
  /** Where the bytes are read from (a symlink inside the work dir is resolved). */
  realPath: string
  directory: boolean
  stats: Stats
}

export interface ArtifactSelection {
  sources: ArtifactSource[]
  /** Patterns that matched nothing (gitlab-runner warns about each). */
  unmatched: string[]
}

/** A path that names the work dir or something in it (`$CI_PROJECT_DIR/out/`), relative to it; others as they are. */
function underWorkDir(path: string, workDir: string): string {
  const dir = workDir.replace(/\/+$/, '')
  if (path === dir || path === `${dir}/`) return '.'
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : path
}

/**
 * The spec with `$VAR` and `${VAR}` in its paths and exclude expanded from the job's variables, as gitlab-runner
 * expands them, and paths under the work dir taken relative to it as gitlab-runner's archiver takes them.
 */
export function expandArtifactsSpec(spec: RunnerJobArtifactsSpec, workDir: string, variables: ReadonlyMap<string, string>): RunnerJobArtifactsSpec {
  const expand = (pattern: string) => underWorkDir(expandLikeRunner(pattern, (name) => variables.get(name)), workDir)
  return { ...spec, paths: spec.paths.map(expand), exclude: spec.exclude.map(expand) }
}

/**
 * The spec's pattern as a path relative to the work dir, or null when it is absolute or leaves the dir (`..`);
 * gitlab-runner resolves the same way and refuses those.
 */
export function relativePattern(pattern: string): string | null {
  if (pattern === '' || posix.isAbsolute(pattern) || /^[a-zA-Z]:/.test(pattern) || pattern.includes('\0')) return null
  const normal = posix.normalize(pattern).replace(/\/+$/, '')
  if (normal === '..' || normal.startsWith('../')) return null
  return normal === '' ? '.' : normal
}

class Collector {
  readonly found = new Map<string, ArtifactSource>()
  private readonly excluded: ((path: string) => boolean)[]

  constructor(private readonly root: string, exclude: string[]) {
    this.excluded = exclude.map(relativePattern).filter((p): p is string => p !== null).map((p) => picomatch(p, { dot: true }))
  }

  /** A path is excluded when it or a directory above it matches an `exclude` pattern. */
  isExcluded(name: string): boolean {
    const parts = name.split('/')
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/')
      if (this.excluded.some((m) => m(prefix))) return true
    }
    return false
  }

  private inside(real: string) {
    return real === this.root || real.startsWith(this.root + sep)
  }

  /** Adds a file, or a directory with everything in it; returns whether anything was found at `name`. */
  async add(name: string): Promise<boolean> {
    if (name === '.' || name === '') return this.addChildren('')
    if (this.isExcluded(name)) return false
    const path = join(this.root, name)
    let link: Stats, real: string
    try {
      link = await lstat(path)
      // realpath also catches a directory above `name` that is a symlink pointing out of the work dir.
      real = await realpath(path)
    } catch {
      return false
    }
    if (!this.inside(real)) return false
    const stats = link.isSymbolicLink() ? await stat(real) : link
    if (stats.isFile()) {
      this.found.set(name, { name, realPath: real, directory: false, stats })
      return true
    }
    // Symlinked directories are not walked: they could loop, and their contents are reachable by their own path.
    if (!stats.isDirectory() || link.isSymbolicLink()) return false
    this.found.set(name + '/', { name: name + '/', realPath: real, directory: true, stats })
    await this.addChildren(name)
    return true
  }

  private async addChildren(dir: string): Promise<boolean> {
    let names: string[]
    try {
      names = await readdir(join(this.root, dir))
    } catch {
      return false
    }
    let any = false
    for (const child of names.sort()) if (await this.add(dir ? `${dir}/${child}` : child)) any = true
    return any
  }

  /** Walks from the glob's fixed base and adds every file or directory whose path matches. */
  async addGlob(pattern: string): Promise<boolean> {
    const { base } = picomatch.scan(pattern)
    const matches = picomatch(pattern, { dot: true })
    const walk = async (dir: string): Promise<boolean> => {
      let entries
      try {
        entries = await readdir(join(this.root, dir), { withFileTypes: true })
      } catch {
        return false
      }
      let any = false
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const name = dir ? `${dir}/${entry.name}` : entry.name
        if (matches(name)) {
          if (await this.add(name)) any = true
        } else if (entry.isDirectory() && (await walk(name))) any = true
      }
      return any
    }
    const start = base === '' || base === '.' ? '' : base
    if (start !== '') {
      const real = await realpath(join(this.root, start)).catch(() => null)
      if (real === null || !this.inside(real)) return false
    }
    return walk(start)
  }
}

/** The files and directories to archive, sorted by name; `untracked` lists what git does not track in the work dir. */
export async function selectArtifactSources(workDir: string, spec: RunnerJobArtifactsSpec, untracked: () => Promise<string[]>): Promise<ArtifactSelection> {
  const collector = new Collector(await realpath(workDir), spec.exclude ?? [])
  const unmatched: string[] = []
  for (const raw of spec.paths ?? []) {
    const pattern = relativePattern(raw)
    const found = pattern === null ? false : picomatch.scan(pattern).isGlob ? await collector.addGlob(pattern) : await collector.add(pattern)
    if (!found) unmatched.push(raw)
  }
  if (spec.untracked) for (const name of await untracked()) await collector.add(name)
  const sources = [...collector.found.values()].sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)))
  return { sources, unmatched }
}
