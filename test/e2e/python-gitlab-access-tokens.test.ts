// python-gitlab 3.12 (Debian's python3-gitlab) creating, listing, rotating and deleting project access tokens, and
// keeping a user's external identity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab access tokens and identities', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ clock: fixedClock('2029-07-01T00:00:00.000Z') })
  })
  afterAll(() => server.close())

  it('creates a bot token that works, rotates it, deletes it; sets, finds and deletes an identity', async () => {
    expect(await runPythonGitlab('python-gitlab-access-tokens.py', server)).toEqual({
      created: ['deploy', ['api'], 30, '2030-01-01', true],
      bot: [true, true],
      bot_sees: 'py-tokens',
      listed: [['deploy', true]],
      rotated: ['2030-06-01', true],
      old_token: 401,
      after_delete: [],
      identities: [{ provider: 'ldapmain', extern_uid: 'uid=ldapuser,ou=people', saml_provider_id: null }],
      found: ['ldapuser'],
      after_identity_delete: [],
    })
  })
})
