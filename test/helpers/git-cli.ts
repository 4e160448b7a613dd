// The real git command line for end-to-end tests: a private HOME, no system config, no prompts, fixed identities and dates.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'

export const FIXED_DATE = '2024-01-02T03:04:05Z'

export interface GitCli {
  /** A scratch directory for clones. */
  root: string
  env: Record<string, string>
  /** Runs git and returns stdout; fails the test with git's stderr on a non-zero exit. */
  run(cwd: string, ...args: string[]): Promise<string>
  /** Runs git and returns its exit code and output, for commands expected to fail. */
  attempt(cwd: string, ...args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>
  /** Clones `url` into `<root>/<name>` quietly; returns that directory. */
  clone(url: string, name: string): Promise<string>
  /** Writes files, adds them and commits with the fixed dates; returns the new commit id. */
  commit(cwd: string, message: string, files: Record<string, string | Buffer>): Promise<string>
  /** Removes the scratch directory. */
  cleanup(): void
}

export function gitCli(): GitCli {
  const root = mkdtempSync(join(tmpdir(), 'collab-git-'))
  const home = join(root, '.home')
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: home,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    GIT_AUTHOR_NAME: 'Tess Tester',
    GIT_AUTHOR_EMAIL: 'tess@example.com',
    GIT_COMMITTER_NAME: 'Tess Tester',
    GIT_COMMITTER_EMAIL: 'tess@example.com',
    GIT_AUTHOR_DATE: FIXED_DATE,
    GIT_COMMITTER_DATE: FIXED_DATE,
  }
  const opts = (cwd: string) => ({ cwd, env, extendEnv: false, reject: false, stripFinalNewline: true }) as const
  const cli: GitCli = {
    root,
    env,
    async run(cwd, ...args) {
      const r = await execa('git', args, opts(cwd))
      if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')} exited ${r.exitCode}:\n${r.stderr}`)
      return r.stdout
    },
    async attempt(cwd, ...args) {
      const r = await execa('git', args, opts(cwd))
      return { exitCode: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr }
    },
    async commit(cwd, message, files) {
      for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content)
      await cli.run(cwd, 'add', '--', ...Object.keys(files))
      await cli.run(cwd, 'commit', '-q', '-m', message)
      return cli.run(cwd, 'rev-parse', 'HEAD')
    },
    async clone(url, name) {
      const dir = join(root, name)
      await cli.run(root, 'clone', '-q', url, dir)
      return dir
    },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  }
  return cli
}

/** `http://user:token@host:port/path`: what people paste into `git clone`. */
export function urlWithCredentials(base: string, path: string, user: string, token: string) {
  const u = new URL(path, base)
  u.username = user
  u.password = token
  return u.toString()
}
