// The sandbox a job runs in (bubblewrap): the system read-only, the job's directory writable, a private /tmp and
// HOME, its own pid, ipc and uts namespaces (every descendant dies with the job, a setsid child too), the network kept,
// and the paths that hold secrets (the server's data directory, the runner's configuration, the user's home) hidden
// under empty directories. The job's environment is its variables only: bwrap gets no other.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'

export interface SandboxSpec {
  /** The job's working directory (the clone): the one place it may write that outlives a step. */
  workDir: string
  /** The runner's files for this job (the step's script, file variables): readable, not writable. */
  jobFilesDir: string
  /** Directories the job must not see at all; each is covered by an empty tmpfs. */
  hide: readonly string[]
  /** Directories the job reads though they lie in a hidden one or under /tmp (collab's own install, for `collab` in jobs). */
  expose?: readonly string[]
  /** HOME inside the sandbox, on its private /tmp. */
  home: string
}

export const SANDBOX_HOME = '/tmp/home'

const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent.endsWith('/') ? parent : `${parent}/`)

/**
 * The directories to cover, outermost only: those that exist (bwrap cannot make a mount point on the read-only
 * system) and are not under /tmp (the sandbox's own) or under another one covered already.
 */
function coverable(hide: readonly string[]): string[] {
  const out: string[] = []
  for (const dir of [...new Set(hide.map((d) => resolve(d)))].sort((a, b) => a.length - b.length)) {
    if (dir === '/' || inside(dir, '/tmp') || out.some((o) => inside(dir, o)) || !existsSync(dir)) continue
    out.push(dir)
  }
  return out
}

/** bwrap's arguments before the command; order matters: a later mount covers an earlier one. */
export function sandboxArgs(spec: SandboxSpec): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--dir', spec.home]
  for (const dir of coverable(spec.hide)) args.push('--tmpfs', dir)
  for (const dir of spec.expose ?? []) if (existsSync(dir)) args.push('--ro-bind', resolve(dir), resolve(dir))
  args.push('--bind', spec.workDir, spec.workDir, '--ro-bind', spec.jobFilesDir, spec.jobFilesDir)
  args.push('--unshare-all', '--share-net', '--die-with-parent', '--new-session', '--hostname', 'collab-job', '--chdir', spec.workDir)
  return args
}

export { sandboxUnavailable } from '../core/sandbox-probe.js'
