// Merge requests on top of the web fixture: one from the hostile branch with hostile title, description and file
// names, a draft, one ready to merge, one that conflicts, and one in the private project.
import { afterAll, beforeAll } from 'vitest'
import { expectStatus, request, type Api } from '../../helpers/api.js'
import { commit, create, update } from '../../helpers/repository.js'
import { DESCRIPTION, HOSTILE_BRANCH, HOSTILE_FILE, signIn, webFixture, XSS, type WebFixture } from './fixture.js'

export const HOSTILE_CHANGED = '"><img src=x onerror=window.__xss=1>.md'

export interface MrFixture extends WebFixture { hostile: any; draft: any; topic: any; clash: any; secret: any }

async function openMr(as: Api, projectId: number, input: Record<string, unknown>): Promise<any> {
  return expectStatus(await as.post(`/projects/${projectId}/merge_requests`, { target_branch: 'main', ...input }), 201).body
}

const onBranch = (as: Api, projectId: number, branch: string, message: string, actions: ReturnType<typeof create>[], start?: string) =>
  commit(as, projectId, { branch, ...(start ? { start_branch: start } : {}), commit_message: message, actions })

export async function mrFixture(): Promise<MrFixture> {
  const f = await webFixture()
  const { alice, pub, priv } = f
  const as = alice.api
  await onBranch(as, pub.id, HOSTILE_BRANCH, `Change ${XSS}`, [update(HOSTILE_FILE, 'hostile name, changed\n'), create(HOSTILE_CHANGED, 'new <b>file</b>\n')])
  const hostile = await openMr(as, pub.id, {
    source_branch: HOSTILE_BRANCH, title: `Broken ${XSS}`, description: DESCRIPTION, labels: 'bug,<i>ui</i>',
    assignee_ids: [alice.id], reviewer_ids: [alice.id],
  })
  await onBranch(as, pub.id, 'feature/nested', 'Nested work', [create('nested.txt', 'nested\n')])
  const draft = await openMr(as, pub.id, { source_branch: 'feature/nested', title: 'Draft: nested work' })
  await onBranch(as, pub.id, 'topic', 'Add topic', [create('topic.txt', 'topic\n')], 'main')
  const topic = await openMr(as, pub.id, { source_branch: 'topic', title: 'Add topic' })
  await onBranch(as, pub.id, 'clash', 'Clash on app.js', [update('src/app.js', 'clash\n')], 'main')
  await onBranch(as, pub.id, 'main', 'Main changes app.js', [update('src/app.js', 'main moved on\n')])
  const clash = await openMr(as, pub.id, { source_branch: 'clash', title: 'Clashing change' })
  if (priv.empty_repo !== false) await onBranch(as, priv.id, 'main', 'Init', [create('README.md', 'secret\n')])
  await onBranch(as, priv.id, 'secret-branch', 'Secret', [create('secret.txt', 'secret\n')], 'main')
  const secret = await openMr(as, priv.id, { source_branch: 'secret-branch', title: 'Secret change' })
  return { ...f, hostile, draft, topic, clash, secret }
}

export interface MrSession { f: MrFixture; aliceCookie: string; bobCookie: string }

/** The fixture for a test file, with alice and bob signed in, and page requests carrying a cookie. */
export function useMrFixture() {
  const s = {} as MrSession
  beforeAll(async () => {
    s.f = await mrFixture()
    s.aliceCookie = await signIn(s.f.server, s.f.alice)
    s.bobCookie = await signIn(s.f.server, s.f.bob)
  }, 60_000)
  afterAll(() => s.f?.server.close())
  const headers = (cookie?: string): Record<string, string> => (cookie ? { Cookie: cookie } : {})
  return {
    s,
    get: (path: string, cookie?: string) => request(s.f.server, 'GET', path, { headers: headers(cookie) }),
    post: (path: string, form: Record<string, string>, cookie?: string) => request(s.f.server, 'POST', path, { form, headers: headers(cookie) }),
  }
}
