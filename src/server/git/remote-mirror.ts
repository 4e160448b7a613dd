// The git command line against a push mirror: its refs (ls-remote) and a push of explicit refspecs. Credentials never
// reach argv or disk: git asks a credential helper given inline through GIT_CONFIG_* variables, which prints them from
// the child's own environment. Nothing else of the server's git configuration, or the user's, takes part.
import { execFile } from 'node:child_process'
import { gitChildEnv } from '../../core/child-env.js'
import { GitCommandError } from '../../core/git-error.js'

export interface MirrorRemote {
  /** The remote's URL without user or password. */
  url: string
  credentials: { user: string; password: string } | null
  /**
   * The addresses git must connect to for the URL's host (checked against the local-address rule), passed as curl's
   * RESOLVE so a name resolving elsewhere the second time is not followed; redirects are refused then too. Null: git
   * resolves the name itself (local requests allowed, or the URL names an address).
   */
  pinned: string[] | null
  timeoutMs: number
  signal: AbortSignal
}

// Prints the credentials only when git asks for them (`get`); `store` and `erase` have nothing to do.
const HELPER = '!f() { test "$1" = get && printf "username=%s\\npassword=%s\\n" "$COLLAB_MIRROR_USER" "$COLLAB_MIRROR_PASSWORD"; }; f'
// A stalled transfer (under 1 KB/s for a minute) ends, as GitLab's own mirror updates give up on a hung remote.
const STALL = [['http.lowSpeedLimit', '1000'], ['http.lowSpeedTime', '60']]

function configEnv(pairs: string[][]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(pairs.length) }
  pairs.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key
    env[`GIT_CONFIG_VALUE_${i}`] = value
  })
  return env
}

function remoteEnv(remote: MirrorRemote): Record<string, string> {
  // An empty helper first empties the list, so no helper of any other configuration is asked or told anything.
  const pairs = [['credential.helper', ''], ...STALL]
  if (remote.credentials) pairs.push(['credential.helper', HELPER])
  if (remote.pinned) {
    const u = new URL(remote.url)
    const port = u.port || (u.protocol === 'https:' ? '443' : '80')
    const addresses = remote.pinned.map((a) => (a.includes(':') ? `[${a}]` : a)).join(',')
    pairs.push(['http.curloptResolve', `${u.hostname}:${port}:${addresses}`], ['http.followRedirects', 'false'])
  }
  return gitChildEnv({
    LC_ALL: 'C',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ALLOW_PROTOCOL: 'http:https',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    COLLAB_MIRROR_USER: remote.credentials?.user ?? '',
    COLLAB_MIRROR_PASSWORD: remote.credentials?.password ?? '',
    ...configEnv(pairs),
  })
}

function mirrorGit(gitdir: string, args: string[], remote: MirrorRemote): Promise<string> {
  return new Promise((resolve, reject) => {
    const full = ['--git-dir', gitdir, ...args]
    execFile('git', full, { env: remoteEnv(remote), timeout: remote.timeoutMs, signal: remote.signal, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) return resolve(stdout)
        const e = err as NodeJS.ErrnoException & { killed?: boolean }
        // `push --porcelain` names the refs the remote refused on stdout (`!\trefs/heads/x:refs/heads/x\t[rejected] …`).
        const refused = stdout.split('\n').filter((l) => l.startsWith('!')).join('\n')
        const why = e.killed ? `timed out or stopped\n${stderr}` : [stderr.trim() || e.message, refused].filter(Boolean).join('\n')
        reject(new GitCommandError(args, typeof e.code === 'number' || typeof e.code === 'string' ? e.code : null, why))
      })
  })
}

/** The mirror's branches and tags (tags as their own object ids, as for-each-ref lists them here). */
export async function remoteRefs(gitdir: string, remote: MirrorRemote): Promise<Map<string, string>> {
  const out = await mirrorGit(gitdir, ['ls-remote', '--heads', '--tags', remote.url], remote)
  const refs = new Map<string, string>()
  for (const line of out.split('\n')) {
    const [oid, name] = line.split('\t')
    if (oid && name && !name.endsWith('^{}')) refs.set(name, oid)
  }
  return refs
}

// Far under the argument limit, as Gitaly pushes in batches too.
const BATCH = 500

/** Pushes refspecs (`ref:ref` or `:ref` to delete) in order, forced unless `force` is false. */
export async function pushRefspecs(gitdir: string, remote: MirrorRemote, refspecs: string[], force: boolean) {
  for (let i = 0; i < refspecs.length; i += BATCH) {
    const batch = refspecs.slice(i, i + BATCH)
    await mirrorGit(gitdir, ['push', '--porcelain', ...(force ? ['--force'] : []), remote.url, ...batch], remote)
  }
}

/** `git merge-base --is-ancestor`; false also when either commit is unknown here (the mirror has work we never saw). */
export function isAncestorCommit(gitdir: string, ancestor: string, descendant: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('git', ['--git-dir', gitdir, 'merge-base', '--is-ancestor', ancestor, descendant], { env: gitChildEnv() }, (err) => resolve(!err))
  })
}
