// The environment handed to git child processes: the server's own, minus GIT_* variables (GIT_DIR, GIT_WORK_TREE …)
// that would otherwise steer git away from the repository we name, plus settings that keep git non-interactive.
export function gitChildEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && v !== undefined) env[k] = v
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ...extra }
}
