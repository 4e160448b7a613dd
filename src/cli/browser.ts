// Opens a web page in the user's browser, as gh and glab do: $BROWSER, else the platform's opener; never waits for it.
import { accessSync, constants } from 'node:fs'
import { platform } from 'node:os'
import { delimiter, join } from 'node:path'
import type { IO } from './io.js'

/** The `--web` flag's help, shared by every command that has one. */
export const WEB_FLAG_HELP = 'open it in the web browser ($BROWSER, else the system opener); piped, print its URL'

/** How a page is opened, for the help of `browse` and of every `--web`. */
export const OPENING_HELP = `  "Opening <url> in your browser." goes to stderr; the browser starts and is not waited for. The browser is
  $BROWSER (a command, given the URL as its last argument) or the system's opener (xdg-open, open, or Windows' URL
  handler). When stdout is not a terminal, the URL is printed on stdout so scripts can use it, and a browser starts
  only if $BROWSER names one. When no browser can be started, the URL is printed instead.`

export const WEB_HELP_TEXT = `\nWith --web:\n${OPENING_HELP}`

interface Launch { command: string; args: string[] }

function onPath(io: IO, name: string): string | undefined {
  for (const dir of (io.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return join(dir, name)
    } catch {}
  }
  return undefined
}

/** The command that opens `url`, or undefined when there is none (piped without $BROWSER, or no opener installed). */
function launcherFor(io: IO, url: string, os: NodeJS.Platform): Launch | undefined {
  const browser = io.env.BROWSER?.trim()
  // $BROWSER may carry its own arguments ("firefox --new-tab"), so a shell reads it; the URL stays one argument.
  if (browser) return os === 'win32' ? { command: browser, args: [url] } : { command: '/bin/sh', args: ['-c', `${browser} "$1"`, 'sh', url] }
  if (!io.stdoutIsTTY) return undefined
  // rundll32 hands the URL over without cmd.exe, whose `start` would read `&` in a query string as a new command.
  if (os === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] }
  if (os === 'darwin') return { command: 'open', args: [url] }
  const opener = onPath(io, 'xdg-open')
  return opener ? { command: opener, args: [url] } : undefined
}

async function start(io: IO, launch: Launch): Promise<boolean> {
  const { spawn } = await import('node:child_process')
  const child = spawn(launch.command, launch.args, { detached: true, stdio: 'ignore', env: io.env as NodeJS.ProcessEnv })
  // Only the start is awaited (a missing command fails here); the browser lives on after collab exits.
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true))
    child.once('error', () => resolve(false))
  })
  child.unref()
  return started
}

/** Opens `url`; OPENING_HELP says what goes where. */
export async function openInBrowser(io: IO, url: string, os: NodeJS.Platform = platform()): Promise<void> {
  if (!io.stdoutIsTTY) io.stdout.write(`${url}\n`)
  const launch = launcherFor(io, url, os)
  if (!launch) {
    if (io.stdoutIsTTY) io.stdout.write(`${url}\n`)
    return
  }
  io.stderr.write(`Opening ${url} in your browser.\n`)
  if (!(await start(io, launch))) {
    io.stderr.write(`Could not start ${launch.command}; open the URL yourself.\n`)
    if (io.stdoutIsTTY) io.stdout.write(`${url}\n`)
  }
}
