// Generates a bare repository with git fast-import: N commits over F files, then a 400-file change and a 1-file change.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

export interface GeneratedRepo { dir: string; wideCommit: string; narrowCommit: string; head: string }

export function generateRepo(root: string, commits: number, files: number): GeneratedRepo {
  const dir = join(root, 'bench.git')
  execFileSync('git', ['init', '-q', '--bare', '-b', 'master', dir])
  const chunks: string[] = []
  const contents: string[] = Array.from({ length: files }, (_, f) => `// file ${f}\n`)
  let mark = 0
  const t0 = 1_700_000_000
  const emit = (msg: string, changed: number[], when: number) => {
    mark++
    chunks.push(`commit refs/heads/master\nmark :${mark}\nauthor Bench <bench@example.com> ${when} +0000\ncommitter Bench <bench@example.com> ${when} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}\n`)
    if (mark > 1) chunks.push(`from :${mark - 1}\n`)
    for (const f of changed) {
      const data = contents[f]
      chunks.push(`M 100644 inline src/dir${f % 20}/file${f}.ts\ndata ${Buffer.byteLength(data)}\n${data}\n`)
    }
    chunks.push('\n')
  }
  emit('initial import', Array.from({ length: files }, (_, f) => f), t0)
  for (let i = 1; i < commits - 2; i++) {
    const f = i % files
    contents[f] += `export const v${i} = ${i}\n`
    emit(`change ${i}`, [f], t0 + i * 60)
  }
  for (let f = 0; f < files; f++) contents[f] += `export const wide = ${f}\n`
  emit('touch every file', Array.from({ length: files }, (_, f) => f), t0 + commits * 60)
  contents[7] += 'export const narrow = 1\n'
  emit('touch one file', [7], t0 + commits * 60 + 60)
  execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: chunks.join(''), maxBuffer: 1 << 30 })
  const rev = (r: string) => execFileSync('git', ['--git-dir', dir, 'rev-parse', r]).toString().trim()
  execFileSync('git', ['--git-dir', dir, 'repack', '-adq'])
  return { dir, head: rev('master'), narrowCommit: rev('master'), wideCommit: rev('master~1') }
}
