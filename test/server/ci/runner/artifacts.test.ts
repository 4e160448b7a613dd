// Artifact zips: what paths/exclude/untracked select, escape attempts, metadata.gz byte for byte, single-entry
// reads and extraction that never writes outside its directory.
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { text } from 'node:stream/consumers'
import { pipeline } from 'node:stream/promises'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import yauzl from 'yauzl'
import yazl from 'yazl'
import { dataLayout, type DataLayout } from '../../../../src/core/paths.js'
import type { RunnerJobArtifactsSpec as JobArtifactSpec } from '../../../../src/contract/entities/runner-job.js'
import { createArtifactsZip, extractArtifacts } from '../../../../src/runner/executor/artifacts.js'
import { artifactsMetadataPath, artifactsPath, eraseArtifacts, readArtifactEntry, storeArtifacts } from '../../../../src/server/ci/artifacts.js'

const spec = (over: Partial<JobArtifactSpec>): JobArtifactSpec => ({
  name: 'artifacts', untracked: false, paths: [], exclude: [], when: 'on_success', artifact_type: 'archive', artifact_format: 'zip', expire_in: null, ...over,
})

async function zipNames(path: string): Promise<string[]> {
  const zip = await yauzl.openPromise(path, { lazyEntries: true })
  const names: string[] = []
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => { names.push(e.fileName); zip.readEntry() })
    zip.on('end', resolve)
    zip.on('error', reject)
    zip.readEntry()
  })
  return names
}

function write(root: string, files: Record<string, string>) {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true })
    writeFileSync(join(root, name), content)
  }
}

/** A length-prefixed string of metadata.gz, spelled out for the expected bytes. */
const lp = (s: string) => {
  const b = Buffer.from(s)
  const head = Buffer.alloc(4)
  head.writeUInt32BE(b.length)
  return Buffer.concat([head, b])
}

describe('artifacts', () => {
  let root: string
  let work: string
  let outside: string
  let layout: DataLayout
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'collab-artifacts-'))
    work = join(root, 'work')
    outside = join(root, 'outside')
    mkdirSync(work)
    mkdirSync(outside)
    layout = dataLayout(join(root, 'data'))
    write(work, {
      'build/app.bin': 'app', 'build/sub/lib.o': 'lib', 'build/sub/keep.txt': 'keep', 'build/tmp/scratch': 's',
      'logs/a.log': 'a', 'logs/b.txt': 'b', 'logs/deep/c.log': 'c', 'src/x/one.txt': '1', 'src/two.txt': '2', 'file.txt': 'f', '.hidden/h.txt': 'h',
    })
    write(outside, { 'secret.txt': 'secret' })
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  const zipOf = async (s: Partial<JobArtifactSpec>) => {
    const out = join(root, 'out.zip')
    const result = await createArtifactsZip(work, spec(s), out)
    return { ...result, names: await zipNames(out) }
  }

  it('takes a directory with everything in it, *, ** and ? globs, and dot files', async () => {
    const r = await zipOf({ paths: ['build/', 'logs/*.log', 'src/**/*.txt', 'fil?.txt', '.hidden'] })
    expect(r.names).toEqual([
      '.hidden/', '.hidden/h.txt', 'build/', 'build/app.bin', 'build/sub/', 'build/sub/keep.txt', 'build/sub/lib.o', 'build/tmp/', 'build/tmp/scratch',
      'file.txt', 'logs/a.log', 'src/two.txt', 'src/x/one.txt',
    ])
    expect(r).toMatchObject({ entries: 13, unmatched: [] })
  })

  it('leaves out what exclude matches, a matched directory with its contents', async () => {
    const r = await zipOf({ paths: ['build', 'logs/**'], exclude: ['build/**/*.o', 'build/tmp', 'logs/deep'] })
    expect(r.names).toEqual(['build/', 'build/app.bin', 'build/sub/', 'build/sub/keep.txt', 'logs/a.log', 'logs/b.txt'])
  })

  it('adds the files git does not track, ignored ones too, but not tracked ones', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: root }, stdio: 'pipe' })
    git('init', '-q')
    writeFileSync(join(work, '.gitignore'), 'build/\n')
    git('add', '.gitignore', 'logs', 'src', 'file.txt', '.hidden')
    git('-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'tracked')
    write(work, { 'new.txt': 'n', 'logs/new.log': 'nl' })
    const r = await zipOf({ untracked: true, exclude: ['build/sub/**'] })
    expect(r.names).toEqual(['build/app.bin', 'build/tmp/scratch', 'logs/new.log', 'new.txt'])
  })

  it('never reads outside the work dir: .., absolute paths and symlinks leading out are skipped', async () => {
    symlinkSync(outside, join(work, 'link-out'))
    symlinkSync(join(outside, 'secret.txt'), join(work, 'link-file'))
    symlinkSync(join(work, 'file.txt'), join(work, 'link-in'))
    const paths = ['../outside/secret.txt', join(outside, 'secret.txt'), 'link-out', 'link-out/secret.txt', 'link-file', 'link-in', 'src/../../outside', '*-out/*']
    const r = await zipOf({ paths })
    expect(r.names).toEqual(['link-in'])
    expect(r.unmatched).toEqual(paths.filter((p) => p !== 'link-in'))
    const whole = await zipOf({ paths: ['.', '**/*'] })
    expect(whole.names).not.toContain('link-out/secret.txt')
    expect(whole.names).not.toContain('link-file')
    expect(whole.names).toContain('link-in')
  })

  it('writes an empty zip and says so when nothing matches', async () => {
    const r = await zipOf({ paths: ['nothing/*', 'missing.txt'] })
    expect(r).toEqual({ entries: 0, unmatched: ['nothing/*', 'missing.txt'], names: [] })
  })

  it('stores the zip with metadata.gz in Workhorse format, byte for byte', async () => {
    const src = join(root, 'fixture.zip')
    const zip = new yazl.ZipFile()
    const mtime = new Date(2024, 0, 2, 3, 4, 6)
    zip.addBuffer(Buffer.from('hello\n'), 'a/b/c.txt', { mtime, mode: 0o100644, compress: false })
    zip.addEmptyDirectory('d/', { mtime, mode: 0o40755 })
    // yazl takes fileComment; its typings do not list it.
    zip.addBuffer(Buffer.from('x'), 'top.txt', { mtime, mode: 0o100600, compress: false, fileComment: '<b>&' } as Parameters<typeof zip.addBuffer>[2])
    zip.addBuffer(Buffer.from('é'), 'B.txt', { mtime, mode: 0o100644, compress: false })
    zip.end()
    await pipeline(zip.outputStream, createWriteStream(src))

    const stored = await storeArtifacts(layout, 5, src)
    expect(existsSync(src)).toBe(false)
    expect(stored).toEqual({
      file: 'artifacts.zip', size: readFileSync(artifactsPath(layout, 5)).length, metadataSize: readFileSync(artifactsMetadataPath(layout, 5)).length,
    })
    const bytes = gunzipSync(readFileSync(artifactsMetadataPath(layout, 5)))
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('\x00\x00\x00&GitL')
    expect(bytes).toEqual(Buffer.concat([
      lp('GitLab Build Artifacts Metadata 0.0.2\n'), lp('{}'),
      lp('B.txt'), lp('{"modified":1704164646,"mode":"644","crc":235179326,"size":2,"zipped":2}\n'),
      lp('a/'), lp('{"crc":0,"size":0,"zipped":0}\n'),
      lp('a/b/'), lp('{"crc":0,"size":0,"zipped":0}\n'),
      lp('a/b/c.txt'), lp('{"modified":1704164646,"mode":"644","crc":909783072,"size":6,"zipped":6}\n'),
      lp('d/'), lp('{"modified":1704164646,"mode":"755","crc":0,"size":0,"zipped":0}\n'),
      lp('top.txt'), lp('{"modified":1704164646,"mode":"600","crc":2363233923,"size":1,"zipped":1,"comment":"\\u003cb\\u003e\\u0026"}\n'),
    ]))
  })

  it('reads one entry with its size and a content type from the extension', async () => {
    write(work, { 'report.json': '{"ok":true}', 'notes.txt': 'notes\n', 'data.weird': 'zz', 'page.HTML': '<p>' })
    const out = join(root, 'a.zip')
    await createArtifactsZip(work, spec({ paths: ['report.json', 'notes.txt', 'data.weird', 'page.HTML', 'build'] }), out)
    await storeArtifacts(layout, 9, out)
    const read = async (path: string) => {
      const e = await readArtifactEntry(layout, 9, path)
      return e && { size: e.size, contentType: e.contentType, body: await text(e.stream) }
    }
    expect(await read('report.json')).toEqual({ size: 11, contentType: 'application/json', body: '{"ok":true}' })
    expect(await read('notes.txt')).toEqual({ size: 6, contentType: 'text/plain; charset=utf-8', body: 'notes\n' })
    expect(await read('data.weird')).toEqual({ size: 2, contentType: 'application/octet-stream', body: 'zz' })
    expect(await read('page.HTML')).toEqual({ size: 3, contentType: 'text/html; charset=utf-8', body: '<p>' })
    expect(await read('build/sub/keep.txt')).toEqual({ size: 4, contentType: 'text/plain; charset=utf-8', body: 'keep' })
    for (const missing of ['nope.txt', 'build/', 'build', '', '../report.json', 'a\0b']) expect(await read(missing), missing).toBeNull()
    expect(await readArtifactEntry(layout, 10, 'report.json')).toBeNull()
    await eraseArtifacts(layout, 9)
    expect(existsSync(join(layout.artifacts, '9'))).toBe(false)
    expect(await readArtifactEntry(layout, 9, 'report.json')).toBeNull()
  })

  it('extracts a zip it made into another directory', async () => {
    const out = join(root, 'a.zip')
    await createArtifactsZip(work, spec({ paths: ['build', 'file.txt'] }), out)
    const into = join(root, 'into')
    await extractArtifacts(out, into)
    expect(readFileSync(join(into, 'build/sub/lib.o'), 'utf8')).toBe('lib')
    expect(readFileSync(join(into, 'file.txt'), 'utf8')).toBe('f')
    expect(existsSync(join(into, 'build/tmp'))).toBe(true)
  })

  /** A zip whose entry names are changed after writing (same length), as a hostile uploader would. */
  async function hostileZip(entries: Record<string, string>, rename: [string, string][]) {
    const zip = new yazl.ZipFile()
    for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name, { compress: false })
    zip.end()
    const path = join(root, 'hostile.zip')
    await pipeline(zip.outputStream, createWriteStream(path))
    let bytes = readFileSync(path).toString('latin1')
    for (const [from, to] of rename) bytes = bytes.split(from).join(to)
    writeFileSync(path, Buffer.from(bytes, 'latin1'))
    return path
  }

  it('refuses zip-slip entries and writes nothing outside', async () => {
    const into = join(root, 'into')
    const slip = await hostileZip({ 'ok.txt': 'fine', 'xx/evil.txt': 'evil' }, [['xx/evil.txt', '../evil.txt']])
    await expect(extractArtifacts(slip, into)).rejects.toThrow(/invalid relative path: \.\.\/evil\.txt/)
    expect(existsSync(join(root, 'evil.txt'))).toBe(false)
    const absolute = await hostileZip({ 'xabs/evil.txt': 'evil' }, [['xabs/evil.txt', '/abs/evil.txt']])
    await expect(extractArtifacts(absolute, into)).rejects.toThrow(/absolute path/)
  })

  it('refuses to write through a symlink in the target that leads out of it', async () => {
    const into = join(root, 'into')
    mkdirSync(into)
    symlinkSync(outside, join(into, 'out'))
    const zip = await hostileZip({ 'out/planted.txt': 'x' }, [])
    await expect(extractArtifacts(zip, into)).rejects.toThrow(/leads outside/)
    expect(existsSync(join(outside, 'planted.txt'))).toBe(false)
    // A symlinked file in the target is replaced, not written through.
    rmSync(join(into, 'out'))
    symlinkSync(join(outside, 'secret.txt'), join(into, 'secret.txt'))
    await extractArtifacts(await hostileZip({ 'secret.txt': 'replaced' }, []), into)
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret')
    expect(readFileSync(join(into, 'secret.txt'), 'utf8')).toBe('replaced')
  })
})
