// The environments handed to child processes, read here at the edge. Git's is the server's own minus GIT_* variables
// (GIT_DIR, GIT_WORK_TREE …) that would steer git away from the repository we name, plus settings that keep git
// non-interactive; a CI job's shell keeps only the host basics.
export function gitChildEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && v !== undefined) env[k] = v
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ...extra }
}

/** The server's HOME and PATH (and locale), which job shells keep as gitlab-runner's shell executor does. */
export function serverHostEnv(): Record<string, string> {
  const env: Record<string, string> = {}
  for (const key of ['HOME', 'PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'USER', 'LOGNAME']) {
    const value = process.env[key]
    if (value !== undefined) env[key] = value
  }
  return env
}
