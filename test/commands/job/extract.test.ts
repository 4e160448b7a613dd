// Extracting downloaded artifacts never writes outside the target directory: an archive with entries naming `../`
// paths, absolute paths or symbolic links is refused whole; files keep their mode.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import yazl from 'yazl'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { extractZip } from '../../../commands/job/transfer.js'

let dir: string
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'collab-extract-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A zip of `entries`; a name's `xx` is rewritten afterwards in the raw bytes, where yazl would refuse `..` or `/`. */
async function zipOf(entries: { name: string; data?: string; mode?: number; rewrite?: [string, string] }[]): Promise<string> {
  const file = join(dir, 'a.zip')
  const zip = new yazl.ZipFile()
  for (const e of entries) zip.addBuffer(Buffer.from(e.data ?? ''), e.name, { mode: e.mode ?? 0o100644, mtime: new Date(0) })
  zip.end()
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject))
  let bytes = readFileSync(file).toString('latin1')
  for (const e of entries) if (e.rewrite) bytes = bytes.split(e.rewrite[0]).join(e.rewrite[1])
  writeFileSync(file, Buffer.from(bytes, 'latin1'))
  return file
}

describe('extracting artifacts', () => {
  it('writes the files with their modes', async () => {
    const zip = await zipOf([{ name: 'bin/run.sh', data: 'echo\n', mode: 0o100755 }, { name: 'a.txt', data: 'a\n' }])
    expect(await extractZip(zip, join(dir, 'out'))).toEqual(['bin/run.sh', 'a.txt'])
    expect([readFileSync(join(dir, 'out/bin/run.sh'), 'utf8'), statSync(join(dir, 'out/bin/run.sh')).mode & 0o777]).toEqual(['echo\n', 0o755])
  })

  it('refuses an archive with an entry that climbs out of the directory, writing nothing', async () => {
    const zip = await zipOf([{ name: 'ok.txt', data: 'ok' }, { name: 'xx/xx/evil.txt', data: 'evil', rewrite: ['xx/xx/evil', '../../evil'] }])
    await expect(extractZip(zip, join(dir, 'out/deep'))).rejects.toThrow(`the artifacts hold an entry that may not be extracted into ${join(dir, 'out/deep')}; nothing was extracted:\n  '../../evil.txt': a path out of the directory`)
    expect([existsSync(join(dir, 'out/deep/ok.txt')), existsSync(join(dir, 'evil.txt')), existsSync(join(dir, 'out/evil.txt'))]).toEqual([false, false, false])
  })

  it('stops at a symbolic link, and at a path through a link that leads out', async () => {
    const link = await zipOf([{ name: 'link', data: '/etc/passwd', mode: 0o120777 }])
    await expect(extractZip(link, join(dir, 'out'))).rejects.toThrow("'link': a symbolic link")
    const outside = mkdtempSync(join(tmpdir(), 'collab-outside-'))
    try {
      symlinkSync(outside, join(dir, 'out/escape'))
      const through = await zipOf([{ name: 'escape/x.txt', data: 'x' }])
      await expect(extractZip(through, join(dir, 'out'))).rejects.toThrow("the archive's entry 'escape/x.txt' leads through a symbolic link outside")
      expect(existsSync(join(outside, 'x.txt'))).toBe(false)
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })
})
