// Bare repositories built with the real git command line for the merge engine's tests: a work clone commits, pushes, and the engine reads the bare copy.
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gitCli, type GitCli } from '../../helpers/git-cli.js'

/** A file's new content; null deletes it, `{ exec }` sets the executable bit, `{ link }` makes a symlink. */
export type FileChange = string | Buffer | null | { exec: boolean; content?: string } | { link: string }

export interface Scratch {
  cli: GitCli
  /** The bare repository the engine works on. */
  bare: string
  work: string
  /** Commits `files` on `branch` (created from the current branch when new) and sets it in the bare copy; returns the commit id. */
  commit(branch: string, message: string, files: Record<string, FileChange>): Promise<string>
  /** `git --git-dir <bare> …`, stdout trimmed. */
  git(...args: string[]): Promise<string>
  head(branch: string): Promise<string | null>
}

/** A new repository, or with `forkOf` a bare clone of another one (a fork) with a work clone of its own. */
export async function scratch(name = 'repo', forkOf?: string): Promise<Scratch> {
  const cli = gitCli()
  const bare = join(cli.root, `${name}.git`)
  const work = join(cli.root, `${name}-work`)
  if (forkOf) {
    await cli.run(cli.root, 'clone', '-q', '--bare', forkOf, bare)
    await cli.run(cli.root, 'clone', '-q', bare, work)
  } else {
    await cli.run(cli.root, 'init', '-q', '--bare', '-b', 'master', bare)
    await cli.run(cli.root, 'init', '-q', '-b', 'master', work)
  }
  // The work clone writes its objects straight into the bare repository's store, so a commit reaches the bare copy with
  // one update-ref instead of a push (a push is four git processes, and pushes were most of these tests' time).
  rmSync(join(work, '.git', 'objects'), { recursive: true, force: true })
  symlinkSync(join(bare, 'objects'), join(work, '.git', 'objects'))
  let current = 'master'
  const apply = async (path: string, change: FileChange) => {
    const file = join(work, path)
    rmSync(file, { force: true })
    if (change === null) return
    mkdirSync(dirname(file), { recursive: true })
    if (typeof change === 'string' || Buffer.isBuffer(change)) writeFileSync(file, change)
    else if ('link' in change) symlinkSync(change.link, file)
    else {
      writeFileSync(file, change.content ?? '')
      chmodSync(file, change.exec ? 0o755 : 0o644)
    }
  }
  const s: Scratch = {
    cli, bare, work,
    async commit(branch, message, files) {
      if (branch !== current) {
        const exists = (await cli.attempt(work, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`)).exitCode === 0
        await cli.run(work, 'checkout', '-q', ...(exists ? [branch] : ['-b', branch]))
        current = branch
      }
      for (const [path, change] of Object.entries(files)) await apply(path, change)
      await cli.run(work, 'add', '-A')
      await cli.run(work, 'commit', '-q', '--allow-empty', '-m', message)
      const id = await cli.run(work, 'rev-parse', 'HEAD')
      await cli.run(cli.root, '--git-dir', bare, 'update-ref', `refs/heads/${branch}`, id)
      return id
    },
    git: (...args) => cli.run(cli.root, '--git-dir', bare, ...args),
    async head(branch) {
      const r = await cli.attempt(cli.root, '--git-dir', bare, 'rev-parse', '--verify', '-q', `refs/heads/${branch}`)
      return r.exitCode === 0 ? r.stdout.trim() : null
    },
  }
  return s
}

export const lines = (n: number, edits: Record<number, string> = {}) => Array.from({ length: n }, (_, i) => edits[i + 1] ?? `line ${i + 1}`).join('\n') + '\n'
