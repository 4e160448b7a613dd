// A git command that failed: its arguments, exit code (or spawn error code) and what it wrote to stderr. Thrown by
// the server's git layer and by runners' checkouts alike.
export class GitCommandError extends Error {
  constructor(readonly args: string[], readonly code: number | string | null, readonly stderr: string) {
    super(`git ${args[0]} failed (${code}): ${stderr.trim()}`)
  }
}
