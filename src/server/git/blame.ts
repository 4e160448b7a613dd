// Blame through `git blame --porcelain`: runs of lines with the commit that last changed them.
import { runGit } from './exec.js'
import { blobInfo, blobToSend } from './read.js'

export interface BlameGroup { commit: string; lines: string[] }

/**
 * Blame of `path` at `commit`, lines `range` (1-based, inclusive) when given; consecutive lines of one commit form one
 * group, as Gitlab::Blame#groups does. Lines are read as UTF-8 text.
 */
export async function blameFile(gitdir: string, commit: string, path: string, range?: { start: number; end: number }): Promise<BlameGroup[]> {
  const args = ['blame', '--porcelain']
  if (range) args.push('-L', `${range.start},${range.end}`)
  const out = await runGit(gitdir, [...args, commit, '--', path])
  const groups: BlameGroup[] = []
  let current: string | null = null
  for (const line of out.split('\n')) {
    if (line.startsWith('\t')) {
      const last = groups.at(-1)
      if (last && last.commit === current) last.lines.push(line.slice(1))
      else groups.push({ commit: current!, lines: [line.slice(1)] })
    } else {
      const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line)
      if (header) current = header[1]
    }
  }
  return groups
}

/** The number of lines git counts in a blob's text (a last line without a newline counts), a large blob read as a stream. */
export async function blobLineCount(gitdir: string, oid: string): Promise<number> {
  const { body } = await blobToSend(gitdir, oid, (await blobInfo(gitdir, oid))?.size ?? 0)
  let lines = 0
  let last = -1
  for await (const chunk of Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>)) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++
    if (chunk.length) last = chunk[chunk.length - 1]
  }
  return last === -1 || last === 10 ? lines : lines + 1
}
