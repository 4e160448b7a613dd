// A server with hostile content for the web pages: alice's public project (markup in every field, a branch and a file
// named to break out of attributes), her private project, and bob, who is no member of either.
import { createProject, createUser, expectStatus, type TestUser } from '../../helpers/api.js'
import { createIssue } from '../../helpers/issues.js'
import { commit, create } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
import { postSignIn } from '../../helpers/web-sign-in.js'

export const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">'
export const HOSTILE_BRANCH = 'x"><svg/onload=window.__xss=1>'
export const HOSTILE_FILE = '<img src=x onerror=window.__xss=1>.txt'

export const DESCRIPTION = [
  `Hello ${XSS}`,
  '',
  'See #1, !3 and @alice. [click](javascript:window.__xss=1)',
  '',
  '- [ ] todo item',
  '- [x] done item',
  '',
  '| a | b |',
  '|---|---|',
  '| <b>1</b> | 2 |',
].join('\n')

export interface WebFixture {
  server: TestServer
  alice: TestUser
  bob: TestUser
  pub: any
  priv: any
  issue: any
}

export async function webFixture(): Promise<WebFixture> {
  const server = await startTestServer()
  const alice = await createUser(server, 'alice', { name: 'Alice <b>A</b>' })
  const bob = await createUser(server, 'bob')
  const pub = await createProject(alice.api, { name: 'demo', path: 'demo', visibility: 'public', description: `Demo ${XSS}`, initialize_with_readme: false })
  await commit(alice.api, pub.id, {
    branch: 'main', commit_message: 'files',
    actions: [
      create('README.md', `# Demo readme\n\n${XSS}\n\nIssue #1`),
      create('src/app.js', 'const a = "</script><script>window.__xss=1</script>"\nfunction f() { return 1 }\n'),
      create(HOSTILE_FILE, 'hostile name'),
      create('bin/blob.bin', '\u0000\u0001binary'),
    ],
  })
  expectStatus(await alice.api.post(`/projects/${pub.id}/repository/branches`, { branch: HOSTILE_BRANCH, ref: 'main' }), 201)
  expectStatus(await alice.api.post(`/projects/${pub.id}/repository/branches`, { branch: 'feature/nested', ref: 'main' }), 201)
  expectStatus(await alice.api.post(`/projects/${pub.id}/repository/tags`, { tag_name: 'v1.0', ref: 'main' }), 201)
  const issue = await createIssue(alice.api, pub.id, { title: `Broken ${XSS}`, description: DESCRIPTION, labels: 'bug,<i>ui</i>' })
  await createIssue(alice.api, pub.id, { title: 'Second issue', description: 'plain' })
  const priv = await createProject(alice.api, { name: 'secret', path: 'secret', visibility: 'private' })
  await createIssue(alice.api, priv.id, { title: 'Hidden issue' })
  return { server, alice, bob, pub, priv, issue }
}

/** Signs in through the form's endpoint; the cookie to send with each request. */
export async function signIn(server: TestServer, user: TestUser): Promise<string> {
  const res = await postSignIn(server, { 'user[login]': user.username, 'user[password]': user.password })
  if (res.status !== 302) throw new Error(`sign-in failed: ${res.status} ${res.text}`)
  return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

/** The CSRF token a page's forms carry. */
export function formToken(html: string): string {
  const m = /name="authenticity_token" value="([^"]+)"/.exec(html)
  if (!m) throw new Error('no authenticity_token in the page')
  return m[1]
}

/** A page without the pages' own script file and icons: the only script and svg elements a page may hold. */
export const withoutOwnMarkup = (page: string) => page
  .replace(/<script src="[^"]*\/-\/collab\/page-[0-9a-f]{16}\.js" defer><\/script>/g, '')
  .replace(/<svg class="icon icon-[a-z]+" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">/g, '')
