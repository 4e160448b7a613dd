// `git archive` as a stream: a repository archive goes from the child process to the client, never whole in memory.
import { spawn } from 'node:child_process'
import { PassThrough, type Readable } from 'node:stream'
import { gitChildEnv } from '../../core/child-env.js'
import { GitCommandError } from './exec.js'

/** The archive kinds git writes; GitLab's other format names map onto these (archiveKind). */
export type ArchiveKind = 'tar.gz' | 'tar.bz2' | 'tar' | 'zip'

/** GitLab's `archive_formats_regex` names to the file kind (Gitlab::Git::Repository#archive_file_path). */
const KINDS: Record<string, ArchiveKind> = {
  'tar.gz': 'tar.gz', tgz: 'tar.gz', gz: 'tar.gz',
  'tar.bz2': 'tar.bz2', tbz: 'tar.bz2', tbz2: 'tar.bz2', tb2: 'tar.bz2', bz2: 'tar.bz2',
  tar: 'tar', zip: 'zip',
}

export const archiveKind = (format: string): ArchiveKind | null => (Object.hasOwn(KINDS, format) ? KINDS[format] : null)

const ENV = gitChildEnv({ LC_ALL: 'C' })

// git writes tar.gz with its own zlib (no gzip process); bzip2 is not built in, so it is named as a filter command.
const FILTERS: Record<ArchiveKind, string[]> = {
  'tar.gz': [], tar: [], zip: [],
  'tar.bz2': ['-c', 'tar.tar.bz2.command=bzip2 -c'],
}

const STDERR_LIMIT = 64 * 1024

/**
 * Streams `git archive` of a commit, every entry under `prefix/`, only `path` when given, without the `exclude` paths
 * (the caller checks `path` exists: once bytes are sent, a failure can only cut the stream). The stream ends only after
 * git exits with 0, so a git failure midway breaks the response instead of ending it as if complete; destroying the
 * stream stops git.
 */
export function archiveStream(gitdir: string, commit: string, opts: { kind: ArchiveKind; prefix: string; path?: string; exclude?: string[] }): Readable {
  const args = ['--git-dir', gitdir, ...FILTERS[opts.kind], 'archive', `--format=${opts.kind}`, `--prefix=${opts.prefix}/`, commit]
  // Literal pathspec: a path holding `*` or `:(` is a file name, not a pattern.
  const specs = [...(opts.path ? [`:(literal)${opts.path}`] : []), ...(opts.exclude ?? []).map((p) => `:(exclude,literal)${p}`)]
  if (specs.length) args.push('--', ...specs)
  const child = spawn('git', args, { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] })
  const out = new PassThrough({ highWaterMark: 256 * 1024 })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => { if (stderr.length < STDERR_LIMIT) stderr += d.toString('utf8') })
  child.stdout.pipe(out, { end: false })
  child.once('error', (err) => out.destroy(err))
  child.once('close', (code, signal) => {
    if (code === 0) out.end()
    else out.destroy(new GitCommandError(['archive'], code ?? signal, stderr))
  })
  out.once('close', () => { if (child.exitCode === null && child.signalCode === null) child.kill() })
  return out
}
