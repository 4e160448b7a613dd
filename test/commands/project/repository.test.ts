// collab project branches, tags and file: the built CLI against a real repository, piped, with exact output.
import { describe, expect, it } from 'vitest'
import { execa } from 'execa'
import { createProject, expectStatus } from '../../helpers/api.js'
import { branchHead, commit, create } from '../../helpers/repository.js'
import { BIN, ok, useServerAndCli } from '../cli.js'

const t = useServerAndCli()

const BYTES = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x0a, 0x80, 0xc3, 0x28])

async function seeded() {
  const p = await createProject(t.root, { name: 'demo' })
  const seed = await commit(t.root, p.id, {
    commit_message: 'Seed',
    actions: [create('README.md', '# demo\n'), create('src/main.ts', 'main()\n'), { action: 'create', file_path: 'logo.bin', content: BYTES.toString('base64'), encoding: 'base64' }],
  })
  return { p, seed: seed.id as string }
}

describe('project branches', () => {
  it('creates a branch at the default branch or --ref, lists and deletes it', async () => {
    const { p, seed } = await seeded()
    const next = await commit(t.root, p.id, { commit_message: 'Next', actions: [create('b.txt', 'b\n')] })
    expect(await t.c.run(['project', 'branches', 'create', 'topic', '-p', 'root/demo'])).toEqual(ok('', `Created branch topic at ${next.short_id}\n`))
    expect(await t.c.run(['project', 'branch', 'create', 'old', '--ref', seed, '-p', 'root/demo'])).toEqual(ok('', `Created branch old at ${seed.slice(0, 8)}\n`))
    expect([await branchHead(t.root, p.id, 'topic'), await branchHead(t.root, p.id, 'old')]).toEqual([next.id, seed])
    expect(await t.c.run(['project', 'branches', '-p', 'root/demo'])).toEqual(ok(
      `master\t${next.id}\tdefault protected\tNext\nold\t${seed}\tmerged\tSeed\ntopic\t${next.id}\tmerged\tNext\n`))
    expect(await t.c.run(['project', 'branches', 'list', '--search', 'top', '-p', 'root/demo'])).toEqual(ok(`topic\t${next.id}\tmerged\tNext\n`))
    const body = expectStatus(await t.root.get(`/projects/${p.id}/repository/branches`), 200).text
    expect(await t.c.run(['project', 'branches', '--json', '-p', 'root/demo'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'branches', 'delete', 'old', '-p', 'root/demo'])).toEqual(ok('', 'Deleted branch old\n'))
    expect(await branchHead(t.root, p.id, 'old')).toBe(null)
  })

  it('fails with exit 1 and the API message for an unknown branch', async () => {
    await seeded()
    expect(await t.c.run(['project', 'branches', 'delete', 'nope', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: No such branch (HTTP 404)\n', exitCode: 1 })
  })
})

describe('project tags', () => {
  it('creates lightweight and annotated tags, lists and deletes them', async () => {
    const { p, seed } = await seeded()
    expect(await t.c.run(['project', 'tags', 'create', 'v1', '-r', 'master', '-p', 'root/demo'])).toEqual(ok('', `Created tag v1 at ${seed.slice(0, 8)}\n`))
    expect(await t.c.run(['project', 'tag', 'create', 'v2', '-r', seed, '-m', 'Release 2', '-p', 'root/demo'])).toEqual(ok('', `Created tag v2 at ${seed.slice(0, 8)}\n`))
    expect(await t.c.run(['project', 'tags', '--order-by', 'name', '--sort', 'asc', '-p', 'root/demo'])).toEqual(ok(`v1\t${seed}\t\nv2\t${seed}\tRelease 2\n`))
    expect(await t.c.run(['project', 'tags', 'delete', 'v1', '-p', 'root/demo'])).toEqual(ok('', 'Deleted tag v1\n'))
    expect(expectStatus(await t.root.get(`/projects/${p.id}/repository/tags`), 200).body.map((tag: any) => tag.name)).toEqual(['v2'])
  })
})

describe('project file', () => {
  it('prints a file\'s bytes unchanged, binary included, at a ref', async () => {
    const { p, seed } = await seeded()
    expect(await t.c.run(['project', 'file', 'get', 'README.md', '-p', 'root/demo'])).toEqual(ok('# demo\n'))
    await commit(t.root, p.id, { commit_message: 'Edit', actions: [{ action: 'update', file_path: 'README.md', content: '# changed\n' }] })
    expect(await t.c.run(['project', 'file', 'README.md', '--ref', seed, '-p', 'root/demo'])).toEqual(ok('# demo\n'))
    const binary = await execa('node', [BIN, 'project', 'file', 'get', 'logo.bin', '-p', 'root/demo'], {
      env: { PATH: process.env.PATH ?? '', COLLAB_CONFIG_DIR: t.c.configDir }, extendEnv: false, encoding: 'buffer', stripFinalNewline: false,
    })
    expect(Buffer.from(binary.stdout)).toEqual(BYTES)
  })

  it('lists a directory, or the whole tree with -R', async () => {
    await seeded()
    expect(await t.c.run(['project', 'file', 'list', '-p', 'root/demo'])).toEqual(ok('040000\ttree\tsrc\n100644\tblob\tREADME.md\n100644\tblob\tlogo.bin\n'))
    expect(await t.c.run(['project', 'files', 'ls', 'src', '-p', 'root/demo'])).toEqual(ok('100644\tblob\tsrc/main.ts\n'))
    expect((await t.c.run(['project', 'file', 'list', '-R', '-p', 'root/demo'])).stdout.split('\n')).toHaveLength(5)
  })

  it('fails with exit 1 and the API message for a missing file', async () => {
    await seeded()
    expect(await t.c.run(['project', 'file', 'get', 'nope.txt', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: 404 File Not Found\n', exitCode: 1 })
  })
})
