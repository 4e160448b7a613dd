// The sandbox a job runs in (bubblewrap): the system read-only, the job's directory writable, a private /tmp and
// HOME, its own pid, ipc and uts namespaces (every descendant dies with the job, a setsid child too), the network kept,
// and the paths that hold secrets (the server's data directory, the runner's configuration, the user's home) hidden
// under empty directories. The job's environment is its variables only: bwrap gets no other.
export interface SandboxSpec {
  /** The job's working directory (the clone): the one place it may write that outlives a step. */
  workDir: string
  /** The runner's files for this job (the step's script, file variables): readable, not writable. */
  jobFilesDir: string
  /** Directories the job must not see at all; each is covered by an empty tmpfs. */
  hide: readonly string[]
  /** HOME inside the sandbox, on its private /tmp. */
  home: string
}

export const SANDBOX_HOME = '/tmp/home'

/** bwrap's arguments before the command; order matters: a later mount covers an earlier one. */
export function sandboxArgs(spec: SandboxSpec): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--dir', spec.home]
  // Under /tmp a directory is hidden already (the sandbox's /tmp is its own): covering it would only show its name.
  for (const dir of spec.hide) if (!dir.startsWith('/tmp/')) args.push('--tmpfs', dir)
  args.push('--bind', spec.workDir, spec.workDir, '--ro-bind', spec.jobFilesDir, spec.jobFilesDir)
  args.push('--unshare-all', '--share-net', '--die-with-parent', '--new-session', '--hostname', 'collab-job', '--chdir', spec.workDir)
  return args
}

export { sandboxUnavailable } from '../core/sandbox-probe.js'
