// `collab job artifacts download` runs in a clone: a job's artifacts must not plant anything in its .git directory
// (a hook there runs at the next git command). An archive holding such an entry, under any spelling git protects
// against, a `..` path or a link out is refused whole, naming each entry, and nothing is written.
import { execFileSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import yazl from 'yazl'
import { describe, expect, it } from 'vitest'
import { jobSpec, NOW, seedPipeline, takeJob } from '../../server/ci/jobs/fixture.js'
import { useCiCli } from '../pipeline/fixture.js'

const f = useCiCli()

/** Every path under `dir`, relative to it, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => relative(dir, join(dir, p))).sort()
}

async function zipFile(entries: Array<{ name: string; data: string; mode?: number }>): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'collab-evil-zip-')), 'artifacts.zip')
  const zip = new yazl.ZipFile()
  for (const e of entries) zip.addBuffer(Buffer.from(e.data), e.name, { mtime: new Date(NOW), mode: e.mode ?? 0o100644 })
  zip.end()
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(out)).on('close', resolve).on('error', reject))
  return out
}

/** A finished job whose runner uploaded `entries` as its artifacts archive. */
async function jobWithArtifacts(entries: Array<{ name: string; data: string; mode?: number }>) {
  seedPipeline(f.w, [jobSpec('build', 0)])
  const t = await takeJob(f.w)
  const path = await zipFile(entries)
  await f.w.coordinator.uploadArtifacts(t.id, t.token, { path, expire_in: null, artifact_type: 'archive', artifact_format: 'zip' })
  rmSync(join(path, '..'), { recursive: true, force: true })
  await f.w.coordinator.updateJob(t.id, t.token, { state: 'success' })
  return t.id
}

const HOOK = '#!/bin/sh\necho owned > /tmp/owned\n'

describe('collab job artifacts download into a clone', () => {
  it("refuses an archive that would write into .git, under any of git's spellings, and writes nothing", async () => {
    const id = await jobWithArtifacts([
      { name: 'dist/app.js', data: 'console.log(1)\n' },
      { name: '.git/hooks/post-checkout', data: HOOK, mode: 0o100755 },
      { name: '.GIT/hooks/pre-commit', data: HOOK, mode: 0o100755 },
      { name: '.git./hooks/post-merge', data: HOOK },
      { name: '.git . /config', data: '[core]\n' },
      { name: 'GIT~1/hooks/pre-push', data: HOOK },
      { name: '.g\u200cit/hooks/post-rewrite', data: HOOK },
      { name: 'vendor/lib/.git/hooks/pre-commit', data: HOOK },
      { name: 'docs/readme.md', data: 'ok\n' },
      { name: 'link', data: '.git/hooks', mode: 0o120777 },
    ])
    const clone = mkdtempSync(join(tmpdir(), 'collab-clone-'))
    try {
      execFileSync('git', ['init', '-q', clone])
      const before = tree(clone)
      const res = await f.c.run(['job', 'artifacts', 'download', String(id), ...f.p], { cwd: clone })
      expect(res).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: [
          `error: the artifacts hold 8 entries that may not be extracted into ${clone}; nothing was extracted:`,
          "  '.git/hooks/post-checkout': a path into a .git directory",
          "  '.GIT/hooks/pre-commit': a path into a .git directory",
          "  '.git./hooks/post-merge': a path into a .git directory",
          "  '.git . /config': a path into a .git directory",
          "  'GIT~1/hooks/pre-push': a path into a .git directory",
          "  '.g\u200cit/hooks/post-rewrite': a path into a .git directory",
          "  'vendor/lib/.git/hooks/pre-commit': a path into a .git directory",
          "  'link': a symbolic link",
          'hint: --zip saves the archive as it is',
          '',
        ].join('\n'),
      })
      expect(tree(clone)).toEqual(before)
      expect(existsSync(join(clone, '.git/hooks/post-checkout'))).toBe(false)
    } finally {
      rmSync(clone, { recursive: true, force: true })
    }
  })

  it('extracts an archive of ordinary files, dot files and names that only look like .git', async () => {
    const id = await jobWithArtifacts([
      { name: 'dist/app.js', data: 'console.log(1)\n' },
      { name: '.gitignore', data: 'node_modules\n' },
      { name: '.github/workflows/ci.yml', data: 'on: push\n' },
      { name: 'my.git/config', data: '[core]\n' },
      { name: 'git/notes.txt', data: 'n\n' },
    ])
    const clone = mkdtempSync(join(tmpdir(), 'collab-clone-'))
    try {
      execFileSync('git', ['init', '-q', clone])
      const res = await f.c.run(['job', 'artifacts', 'download', String(id), ...f.p], { cwd: clone })
      expect(res).toEqual({ exitCode: 0, stdout: '', stderr: `Extracted 5 files from the artifacts of job #${id} in ${f.w.project.path_with_namespace} into .\n` })
      expect(tree(clone).filter((p) => !p.startsWith('.git/') && p !== '.git')).toEqual([
        '.github', '.github/workflows', '.github/workflows/ci.yml', '.gitignore', 'dist', 'dist/app.js', 'git', 'git/notes.txt', 'my.git', 'my.git/config',
      ])
    } finally {
      rmSync(clone, { recursive: true, force: true })
    }
  })
})
