// The project of the current directory, read from the git remotes in .git/config (no git process is spawned).
import { promises as fs } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'

export interface Remote {
  name: string
  url: string
}

interface RemoteLocation {
  /** `http:`/`https:` for web remotes, `ssh:` for scp-like and ssh:// ones. */
  protocol: string
  hostname: string
  /** host with port, as in a URL's `host`. */
  host: string
  path: string
}

/** Walks up from `cwd` to the first `.git`; a `.git` file (worktree, submodule) points at the real directory. */
export async function findGitConfig(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git')
    const info = await fs.stat(dotGit).catch(() => undefined)
    if (info?.isDirectory()) return join(dotGit, 'config')
    if (info?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.readFile(dotGit, 'utf8'))
      if (pointer) {
        const gitDir = isAbsolute(pointer[1].trim()) ? pointer[1].trim() : join(dir, pointer[1].trim())
        // A worktree's remotes live in the main repository, named by `commondir`.
        const common = await fs.readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined)
        const configDir = common ? resolve(gitDir, common.trim()) : gitDir
        return join(configDir, 'config')
      }
    }
    if (dirname(dir) === dir) return undefined
  }
}

/** The `[remote "name"] url = …` entries of a git config file, in file order. */
export function parseRemotes(configText: string): Remote[] {
  const remotes: Remote[] = []
  let current: string | undefined
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const section = /^\[\s*([^\s\]"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line)
    if (section) {
      current = section[1].toLowerCase() === 'remote' ? section[2] : undefined
      continue
    }
    const entry = /^([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(line)
    if (current !== undefined && entry && entry[1].toLowerCase() === 'url' && !remotes.some((r) => r.name === current)) {
      remotes.push({ name: current, url: entry[2].replace(/^"(.*)"$/, '$1') })
    }
  }
  return remotes
}

/** `https://host/a/b.git`, `ssh://git@host:2222/a/b.git` and scp-like `git@host:a/b.git`. */
export function parseRemoteUrl(url: string): RemoteLocation | undefined {
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/.exec(url)
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    return { protocol: 'ssh:', hostname: scp[1], host: scp[1], path: scp[2] }
  }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const protocol = parsed.protocol === 'git+ssh:' || parsed.protocol === 'ssh+git:' ? 'ssh:' : parsed.protocol
  if (!['http:', 'https:', 'ssh:'].includes(protocol)) return undefined
  return { protocol, hostname: parsed.hostname, host: parsed.host, path: decodeURIComponent(parsed.pathname) }
}

const cleanPath = (path: string) => path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '')

/** The project path when `remoteUrl` points into `host` (a base URL, possibly with a path prefix). */
export function projectOnHost(remoteUrl: string, host: string): string | undefined {
  const remote = parseRemoteUrl(remoteUrl)
  if (!remote) return undefined
  const base = new URL(host)
  const prefix = base.pathname.replace(/\/+$/, '')
  let path = remote.path
  if (remote.protocol === 'ssh:') {
    if (remote.hostname !== base.hostname) return undefined
  } else {
    if (remote.protocol !== base.protocol || remote.host !== base.host) return undefined
    if (prefix) {
      if (!path.startsWith(`${prefix}/`)) return undefined
      path = path.slice(prefix.length)
    }
  }
  const project = cleanPath(path)
  return project.includes('/') ? project : undefined
}

/** Remotes are tried `origin` first, then in file order; hosts in the order given. */
export function matchRemotes(remotes: Remote[], hosts: string[]): { host: string; project: string; remote: string } | undefined {
  const ordered = [...remotes.filter((r) => r.name === 'origin'), ...remotes.filter((r) => r.name !== 'origin')]
  for (const remote of ordered) {
    for (const host of hosts) {
      const project = projectOnHost(remote.url, host)
      if (project) return { host, project, remote: remote.name }
    }
  }
  return undefined
}

export async function projectFromGitRemote(cwd: string, hosts: string[]) {
  if (hosts.length === 0) return undefined
  const file = await findGitConfig(cwd)
  if (!file) return undefined
  const text = await fs.readFile(file, 'utf8').catch(() => undefined)
  return text === undefined ? undefined : matchRemotes(parseRemotes(text), hosts)
}
