// A diff read as git writes it gives the same files however the output is split into chunks, and answers a page as
// soon as its files are there.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DiffOutputReader, GrowingDiff } from '../../../src/server/git/diff-stream.js'
import type { DiffFile } from '../../../src/server/git/types.js'

let dir: string
let output: string

const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args]).toString()

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'collab-diff-stream-'))
  git('init', '-q')
  const notes = Array.from({ length: 30 }, (_, i) => `note ${i}\n`).join('')
  writeFileSync(join(dir, 'notes.txt'), notes)
  writeFileSync(join(dir, 'gone.txt'), 'bye\n')
  writeFileSync(join(dir, 'link'), 'target\n')
  writeFileSync(join(dir, 'odd.txt'), 'plain\n')
  writeFileSync(join(dir, 'run.sh'), 'echo\n')
  git('add', '.')
  git('commit', '-qm', 'one')
  git('mv', 'notes.txt', 'moved.txt')
  writeFileSync(join(dir, 'moved.txt'), `${notes}one more\n`)
  unlinkSync(join(dir, 'gone.txt'))
  unlinkSync(join(dir, 'link'))
  symlinkSync('target', join(dir, 'link'))
  // A lone CR and U+2028 inside lines, and a line that looks like a patch header but is content.
  writeFileSync(join(dir, 'odd.txt'), 'plain\nwith\rcr and \u2028 separator\ndiff --git a/x b/x\n')
  writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 3, 0, 255]))
  execFileSync('chmod', ['+x', join(dir, 'run.sh')])
  git('add', '-A')
  git('commit', '-qm', 'two')
  output = execFileSync('git', ['-C', dir, 'diff', '-M', '--no-color', '--no-ext-diff', '--full-index', '--no-abbrev', '--raw', '-p', '-z', 'HEAD~1', 'HEAD']).toString()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The files the reader makes of `output` given in chunks of `size` characters. */
async function read(size: number): Promise<readonly DiffFile[]> {
  const diff = new GrowingDiff()
  const reader = new DiffOutputReader(diff)
  for (let i = 0; i < output.length; i += size) reader.push(output.slice(i, i + size))
  reader.end()
  return diff.all
}

describe('DiffOutputReader', () => {
  it('gives the same files for any chunking, each with its own patch', async () => {
    const whole = await read(output.length)
    expect(whole.map((f) => [f.oldPath, f.newPath, f.newFile, f.deletedFile, f.renamedFile, f.additions, f.deletions])).toEqual([
      ['bin.dat', 'bin.dat', true, false, false, 0, 0],
      ['gone.txt', 'gone.txt', false, true, false, 0, 1],
      ['link', 'link', false, true, false, 0, 1],
      ['link', 'link', true, false, false, 1, 0],
      ['notes.txt', 'moved.txt', false, false, true, 1, 0],
      ['odd.txt', 'odd.txt', false, false, false, 2, 0],
      ['run.sh', 'run.sh', false, false, false, 0, 0],
    ])
    expect(whole[0].diff).toBe('Binary files /dev/null and b/bin.dat differ\n')
    expect(whole[5].diff).toContain('+diff --git a/x b/x\n')
    expect(whole[6].diff).toBe('')
    for (const size of [1, 2, 7, 11, 12, 13, 64, 1000]) expect([size, await read(size)]).toEqual([size, whole])
  })

  it('answers a page once its files are there, before the diff is done', async () => {
    const diff = new GrowingDiff()
    const reader = new DiffOutputReader(diff)
    const split = output.indexOf('\ndiff --git a/link')
    const first = diff.page(0, 2)
    const later = diff.page(5, 2)
    let laterDone = false
    void later.then(() => (laterDone = true))
    // A patch is whole once the next one's header has arrived.
    reader.push(output.slice(0, split + '\ndiff --git '.length))
    const page = await first
    expect([page.total, page.files.map((f) => f.newPath)]).toEqual([7, ['bin.dat', 'gone.txt']])
    await new Promise((resolve) => setImmediate(resolve))
    expect(laterDone).toBe(false)
    reader.push(output.slice(split + '\ndiff --git '.length))
    reader.end()
    expect((await later).files.map((f) => f.newPath)).toEqual(['odd.txt', 'run.sh'])
  })

  it('tells the files not read whole without their patches when the output stops early', async () => {
    const all = await read(output.length)
    const diff = new GrowingDiff()
    const reader = new DiffOutputReader(diff)
    reader.push(output.slice(0, output.indexOf('\ndiff --git a/link') + '\ndiff --git '.length))
    reader.endWithout(all.map((f) => ({ ...f, diff: '' })))
    expect((await diff.all).map((f) => f.diff !== '')).toEqual([true, true, false, false, false, false, false])
  })

  it('passes a failure to every waiting page', async () => {
    const diff = new GrowingDiff()
    const waiting = diff.page(0, 20)
    diff.fail(new Error('git died'))
    await expect(waiting).rejects.toThrow('git died')
    await expect(diff.page(0, 1)).rejects.toThrow('git died')
  })
})
