// A page's API answer is kept after its first read (wiki-read.ts pageAnswer): every change through the API or a git
// push is seen by the very next read, and who may read is still asked on every request.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus, type QueryValue } from '../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../helpers/git-cli.js'
import { wikiFixture, type WikiFixture } from './fixture.js'

let f: WikiFixture
let git: GitCli
let clone: string

const page = (slug: string, content: string) => ({ format: 'markdown', slug, title: slug, content })
const read = async (slug: string, query?: Record<string, QueryValue>) => {
  const res = await f.guest.api.get(`${f.wikis()}/${encodeURIComponent(slug)}`, { query })
  return [res.status, res.body]
}
const push = async (message: string, files: Record<string, string>, removed: string[] = []) => {
  for (const name of removed) rmSync(join(clone, name))
  if (removed.length) await git.run(clone, 'rm', '-q', '--cached', '--', ...removed)
  if (Object.keys(files).length) await git.commit(clone, message, files)
  else await git.run(clone, 'commit', '-q', '-m', message)
  await git.run(clone, 'push', '-q', 'origin', 'master')
}

beforeAll(async () => {
  f = await wikiFixture()
  git = gitCli()
  expectStatus(await f.developer.api.post(f.wikis(), { title: 'Guide', content: 'one' }), 201)
  const url = urlWithCredentials(f.server.url, '/alice/handbook.wiki.git', f.developer.username, f.developer.token)
  clone = await git.clone(url, 'wiki')
})
afterAll(async () => {
  await f.close()
  git.cleanup()
})

describe('a page read again after a change', () => {
  it('shows an API edit of the content at once', async () => {
    expect(await read('Guide')).toEqual([200, page('Guide', 'one')])
    expectStatus(await f.developer.api.put(`${f.wikis()}/Guide`, { content: 'two' }), 200)
    expect(await read('Guide')).toEqual([200, page('Guide', 'two')])
  })

  it('follows an API rename: the old slug is gone, the same blob under the new path answers with its own slug', async () => {
    expect(await read('Guide')).toEqual([200, page('Guide', 'two')])
    expectStatus(await f.developer.api.put(`${f.wikis()}/Guide`, { title: 'Manual' }), 200)
    expect(await read('Guide')).toEqual([404, { message: '404 Wiki Page Not Found' }])
    expect(await read('Manual')).toEqual([200, page('Manual', 'two')])
    // Same content, so the same blob id, at another path: the answer is kept per file, not per blob.
    expectStatus(await f.developer.api.post(f.wikis(), { title: 'Copy', content: 'two' }), 201)
    expect(await read('Copy')).toEqual([200, page('Copy', 'two')])
    expect(await read('Manual')).toEqual([200, page('Manual', 'two')])
  })

  it('shows a change pushed with git at once, and a page deleted by a push is gone', async () => {
    await git.run(clone, 'pull', '-q', '--ff-only', 'origin', 'master')
    expect(await read('Manual')).toEqual([200, page('Manual', 'two')])
    await push('Manual from git', { 'Manual.md': 'three' })
    expect(await read('Manual')).toEqual([200, page('Manual', 'three')])
    expect(await read('Copy')).toEqual([200, page('Copy', 'two')])
    await push('Copy removed', {}, ['Copy.md'])
    expect(await read('Copy')).toEqual([404, { message: '404 Wiki Page Not Found' }])
  })

  it('shows an API delete and a re-creation with other content at once', async () => {
    expectStatus(await f.developer.api.post(f.wikis(), { title: 'Notes', content: 'first' }), 201)
    expect(await read('Notes')).toEqual([200, page('Notes', 'first')])
    expectStatus(await f.maintainer.api.del(`${f.wikis()}/Notes`), 204)
    expect(await read('Notes')).toEqual([404, { message: '404 Wiki Page Not Found' }])
    expectStatus(await f.developer.api.post(f.wikis(), { title: 'Notes', content: 'second' }), 201)
    expect(await read('Notes')).toEqual([200, page('Notes', 'second')])
  })

  it('answers an older version, and render_html, apart from the page as it is now', async () => {
    const before = f.head()
    expectStatus(await f.developer.api.put(`${f.wikis()}/Manual`, { content: '# Four' }), 200)
    expect(await read('Manual')).toEqual([200, page('Manual', '# Four')])
    expect(await read('Manual', { version: before })).toEqual([200, page('Manual', 'three')])
    expect(await read('Manual', { render_html: true })).toEqual([200, page('Manual', '<h1>Four</h1>\n')])
    expect(await read('Manual')).toEqual([200, page('Manual', '# Four')])
  })
})

describe('who may read a page already answered', () => {
  it('is asked on every request: a stranger gets 404, and nobody reads while the wiki is disabled', async () => {
    expect(await read('Manual')).toEqual([200, page('Manual', '# Four')])
    const stranger = await f.stranger.api.get(`${f.wikis()}/Manual`)
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }])
    expectStatus(await f.owner.api.put(`/projects/${f.projectId}`, { wiki_enabled: false }), 200)
    expect((await read('Manual'))[0]).toBe(403)
    expectStatus(await f.owner.api.put(`/projects/${f.projectId}`, { wiki_enabled: true }), 200)
    expect(await read('Manual')).toEqual([200, page('Manual', '# Four')])
  })
})
