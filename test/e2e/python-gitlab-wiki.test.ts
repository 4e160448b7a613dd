// python-gitlab 3.12 (Debian's python3-gitlab) managing wiki pages, subpages and attachments on collab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab wikis', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('creates, lists, gets a subpage, saves, moves by title, deletes, and uploads an attachment', async () => {
    expect(await runPythonGitlab('python-gitlab-wiki.py', server)).toEqual({
      created: ['Home-Page', 'Home Page', 'markdown', '# Welcome'],
      list: [['Home-Page', 'Home Page', 'markdown'], ['docs/Deep-Dive', 'Deep Dive', 'asciidoc']],
      with_content: ['# Welcome', '= Deep'],
      got: ['docs/Deep-Dive', '= Deep'],
      saved: '= Deeper',
      moved: ['docs/Deepest', ['Home-Page', 'docs/Deepest']],
      duplicate: [400, { base: ['Duplicate page: A page with that title already exists in the file Home-Page.md'] }],
      missing: [404, '404 Wiki Page Not Found'],
      upload: ['shot.png', 'master', true],
      after_delete: ['docs/Deepest'],
    })
  })
})
