// POST /projects/:id/wikis/attachments: the file committed under uploads/<hex>/, GitLab's answer, limits and odd names.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WikiAttachment } from '../../../src/contract/entities/wikis.js'
import { api, expectStatus, type TestUser } from '../../helpers/api.js'
import { wikiFixture, type WikiFixture } from './fixture.js'

let f: WikiFixture

beforeAll(async () => {
  f = await wikiFixture()
})
afterAll(() => f.close())

function upload(as: TestUser, parts: { file?: [Buffer | string, string]; branch?: string }) {
  const form = new FormData()
  if (parts.file) form.append('file', new Blob([parts.file[0]]), parts.file[1])
  if (parts.branch !== undefined) form.append('branch', parts.branch)
  return as.api.request('POST', `${f.wikis()}/attachments`, { body: form as any })
}

const blobAt = (branch: string, path: string) =>
  execFileSync('git', ['--git-dir', join(f.server.dataDir, 'repositories', `${f.projectId}.wiki.git`), 'cat-file', 'blob', `${branch}:${path}`])

describe('POST /projects/:id/wikis/attachments', () => {
  it('commits an image under uploads/<32 hex>/ and answers file_name, file_path, branch and the image link', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255])
    const res = expectStatus(await upload(f.developer, { file: [png, 'diagram.png'] }), 201)
    WikiAttachment.strict().parse(res.body)
    const path = res.body.file_path as string
    expect(path).toMatch(/^uploads\/[0-9a-f]{32}\/diagram\.png$/)
    expect(res.body).toEqual({ file_name: 'diagram.png', file_path: path, branch: 'master', link: { url: path, markdown: `![diagram](${path})` } })
    expect(blobAt('master', path).equals(png)).toBe(true)
    expect(f.history()).toEqual(['Upload attachment diagram.png|Dave Developer|dave@example.com'])
    // An upload is no page: the list stays empty.
    expect(expectStatus(await f.guest.api.get(f.wikis()), 200).body).toEqual([])
  })

  it('links other files by their whole name, keeps only the last part of a path, and commits to the branch asked for', async () => {
    const res = expectStatus(await upload(f.developer, { file: ['notes', '../../etc/report v2.pdf'], branch: 'drafts' }), 201)
    const path = res.body.file_path as string
    expect(path).toMatch(/^uploads\/[0-9a-f]{32}\/report_v2\.pdf$/)
    expect(res.body).toEqual({ file_name: 'report_v2.pdf', file_path: path, branch: 'drafts', link: { url: path, markdown: `[report_v2.pdf](${path})` } })
    expect(blobAt('drafts', path).toString()).toBe('notes')
  })

  it('cuts a name over 255 bytes and keeps its extension', async () => {
    const res = expectStatus(await upload(f.developer, { file: ['x', `${'n'.repeat(300)}.txt`] }), 201)
    expect(res.body.file_name).toBe(`${'n'.repeat(251)}.txt`)
  })

  it('answers 400 for a missing file, an empty name and a bad branch, committing nothing', async () => {
    const before = f.history()
    const missing = await upload(f.developer, { branch: 'master' })
    expect([missing.status, missing.body]).toEqual([400, { error: 'file is missing' }])
    const dots = await upload(f.developer, { file: ['x', '..'] })
    expect([dots.status, dots.body]).toEqual([400, { message: 'The file name cannot be empty' }])
    const branch = await upload(f.developer, { file: ['x', 'a.txt'], branch: 'bad..name' })
    expect([branch.status, branch.body]).toEqual([400, { message: 'Invalid branch name: bad..name' }])
    expect(f.history()).toEqual(before)
  })

  it('answers 413 over max_attachment_size and commits nothing', async () => {
    const root = api(f.server, f.server.rootToken)
    expectStatus(await root.put('/application/settings', { max_attachment_size: 1 }), 200)
    try {
      const before = f.history()
      const res = await upload(f.developer, { file: [Buffer.alloc(1024 * 1024 + 1, 1), 'big.bin'] })
      expect([res.status, res.body]).toEqual([413, { message: '413 Request Entity Too Large' }])
      expect(f.history()).toEqual(before)
      expectStatus(await upload(f.developer, { file: [Buffer.alloc(1024 * 1024, 1), 'fits.bin'] }), 201)
    } finally {
      expectStatus(await root.put('/application/settings', { max_attachment_size: 10 }), 200)
    }
  })
})
