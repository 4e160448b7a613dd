// @gitbeaker/rest managing wiki pages and uploading an attachment against collab, unchanged.
import { Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe('@gitbeaker/rest wikis against collab', () => {
  let server: TestServer
  let api: InstanceType<typeof Gitlab>

  beforeAll(async () => {
    server = await startTestServer()
    api = new Gitlab({ host: server.url, token: server.rootToken })
  })
  afterAll(() => server.close())

  it('creates, lists, shows a subpage (encoded slug), edits, renders and removes pages', async () => {
    const project = await api.Projects.create({ name: 'gb-wiki' })
    const created = await api.ProjectWikis.create(project.id, '# Hi', 'docs/Start Here')
    expect(created).toEqual({ format: 'markdown', slug: 'docs/Start-Here', title: 'Start Here', content: '# Hi' })
    await api.ProjectWikis.create(project.id, 'plain', 'Notes', { format: 'rdoc' })
    expect(await api.ProjectWikis.all(project.id)).toEqual([
      { format: 'rdoc', slug: 'Notes', title: 'Notes' },
      { format: 'markdown', slug: 'docs/Start-Here', title: 'Start Here' },
    ])
    expect((await api.ProjectWikis.all(project.id, { withContent: true })).map((p) => p.content)).toEqual(['plain', '# Hi'])
    expect((await api.ProjectWikis.show(project.id, 'docs/Start-Here', { renderHtml: true })).content).toBe('<h1>Hi</h1>\n')
    const edited = await api.ProjectWikis.edit(project.id, 'docs/Start-Here', { title: 'Begin' })
    expect(edited.slug).toBe('docs/Begin')
    await api.ProjectWikis.remove(project.id, 'Notes')
    expect((await api.ProjectWikis.all(project.id)).map((p) => p.slug)).toEqual(['docs/Begin'])
    await expect(api.ProjectWikis.show(project.id, 'Notes')).rejects.toMatchObject({ cause: { description: '404 Wiki Page Not Found' } })
  })

  it('uploads an attachment with the answer GitLab gives', async () => {
    const project = await api.Projects.create({ name: 'gb-wiki-upload' })
    const res = await api.ProjectWikis.uploadAttachment(project.id, { content: new Blob(['%PDF-1.4']), filename: 'spec.pdf' })
    expect(res).toMatchObject({ file_name: 'spec.pdf', branch: 'master', link: { url: res.file_path, markdown: `[spec.pdf](${res.file_path})` } })
    expect(res.file_path).toMatch(/^uploads\/[0-9a-f]{32}\/spec\.pdf$/)
  })
})
