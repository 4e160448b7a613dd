// The runner's own trace lines, coloured as gitlab-runner colours them (GitLab's log viewer renders the ANSI codes).
const RESET = '\x1b[0;m'

export const green = (text: string) => `\x1b[32;1m${text}${RESET}`
export const yellow = (text: string) => `\x1b[0;33m${text}${RESET}`
export const red = (text: string) => `\x1b[31;1m${text}${RESET}`
export const section = (text: string) => green(text)

/** gitlab-runner's Go duration form in its timeout message: 1h0m0s, 30m0s, 5s. */
export function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = seconds % 60
  if (h > 0) return `${h}h${m}m${s}s`
  if (m > 0) return `${m}m${s}s`
  return `${s}s`
}

/** The echo of a command before it runs: its first line, marked when more follow. */
export function commandEcho(command: string): string {
  const lines = command.split('\n')
  const more = lines.slice(1).some((l) => l.trim() !== '')
  return green(`$ ${lines[0]}${more ? ' # collapsed multi-line command' : ''}`)
}
