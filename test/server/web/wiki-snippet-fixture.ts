// A server for the wiki, snippet, group and user pages: hostile text in every field alice writes, her public and
// private projects with wikis and snippets, a group with a public and a private subgroup and project, and bob, who is
// a member of nothing.
import { api, createGroup, createProject, createUser, expectStatus, request, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { signIn, XSS } from './fixture.js'

export { XSS }
/** XSS as every page must show it: as text. */
export const ESCAPED_XSS = '&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;'
export const HOSTILE_NAME = '<img src=x onerror=window.__xss=1>.txt'

export interface PagesFixture {
  server: TestServer
  alice: TestUser
  bob: TestUser
  pub: any
  priv: any
  snippet: any
  privateSnippet: any
  personal: any
  personalPrivate: any
  group: any
  aliceCookie: string
  bobCookie: string
}

async function wikis(alice: TestUser, pub: any, priv: any) {
  const page = (id: number, body: Record<string, string>) => alice.api.post(`/projects/${id}/wikis`, body).then((r) => expectStatus(r, 201))
  await page(pub.id, { title: 'home', content: `# Welcome\n\n${XSS}\n\nSee #1 and @alice.\n\n- [x] done` })
  await page(pub.id, { title: 'docs/setup', content: 'Setup *steps*' })
  await page(pub.id, { title: `Evil ${XSS}`, content: 'evil title' })
  await page(pub.id, { title: 'guide', format: 'asciidoc', content: `= Guide\n\n${XSS}\n` })
  await page(priv.id, { title: 'home', content: 'private wiki' })
}

async function snippets(alice: TestUser, pub: any) {
  const snippet = (path: string, body: Record<string, unknown>) => alice.api.post(path, body).then((r) => expectStatus(r, 201).body)
  const files = [{ file_path: 'app.js', content: 'const a = "</script><script>window.__xss=1</script>"\n' }, { file_path: HOSTILE_NAME, content: `${XSS}\n` }]
  const pubSnippet = await snippet(`/projects/${pub.id}/snippets`, { title: `Snip ${XSS}`, description: `About ${XSS} #1`, visibility: 'public', files })
  expectStatus(await alice.api.post(`/projects/${pub.id}/snippets/${pubSnippet.id}/notes`, { body: `A note ${XSS}` }), 201)
  return {
    snippet: pubSnippet,
    privateSnippet: await snippet(`/projects/${pub.id}/snippets`, { title: 'Members only', visibility: 'private', files: [{ file_path: 'x.txt', content: 'x' }] }),
    personal: await snippet('/snippets', { title: 'Mine', visibility: 'public', files: [{ file_path: 'notes.md', content: '# hi\n' }] }),
    personalPrivate: await snippet('/snippets', { title: 'Mine alone', visibility: 'private', files: [{ file_path: 'p.txt', content: 'p' }] }),
  }
}

async function groups(alice: TestUser) {
  const group = await createGroup(alice.api, { name: 'Team', path: 'team', visibility: 'public', description: `Team ${XSS}` })
  await createGroup(alice.api, { name: 'Sub', path: 'sub', parent_id: group.id, visibility: 'public', description: 'open subgroup' })
  await createGroup(alice.api, { name: 'Hidden', path: 'hidden', parent_id: group.id, visibility: 'private' })
  await createProject(alice.api, { name: 'tool', path: 'tool', namespace_id: group.id, visibility: 'public', description: `Tool ${XSS}` })
  await createProject(alice.api, { name: 'inner', path: 'inner', namespace_id: group.id, visibility: 'private' })
  return group
}

export async function pagesFixture(): Promise<PagesFixture> {
  const server = await startTestServer()
  const alice = await createUser(server, 'alice', { name: 'Alice <b>A</b>' })
  const bob = await createUser(server, 'bob')
  expectStatus(await api(server, server.rootToken).put(`/users/${alice.id}`, { bio: `Bio ${XSS}`, location: 'Lyon <i>x</i>', website_url: 'javascript:alert(1)' }), 200)
  const pub = await createProject(alice.api, { name: 'demo', path: 'demo', visibility: 'public', initialize_with_readme: true })
  const priv = await createProject(alice.api, { name: 'secret', path: 'secret', visibility: 'private', initialize_with_readme: true })
  await wikis(alice, pub, priv)
  const made = await snippets(alice, pub)
  const group = await groups(alice)
  return { server, alice, bob, pub, priv, ...made, group, aliceCookie: await signIn(server, alice), bobCookie: await signIn(server, bob) }
}

/** A page as `cookie`'s owner (anonymous without one). */
export const getPage = (f: Pick<PagesFixture, 'server'>, path: string, cookie?: string) =>
  request(f.server, 'GET', path, { headers: cookie ? { Cookie: cookie } : {} })

/** No markup the data brought survives, anywhere on the page. */
export function injected(html: string): string[] {
  const found: string[] = []
  for (const bad of [/<script/i, /<img src=x/i, /<svg/i, /href="javascript:/i, /<b>/, /<i>/]) if (bad.test(html)) found.push(String(bad))
  return found
}
