// GET /version and GET /metadata: a semver-like version, authenticated (python-gitlab's gl.version()).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Version } from '../../../src/contract/entities/users.js'
import { GITLAB_COMPAT_VERSION } from '../../../src/core/version.js'
import { api, createUser, type TestUser } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let reader: TestUser

beforeAll(async () => {
  server = await startTestServer()
  reader = await createUser(server, 'reader', { scopes: ['read_user'] })
})
afterAll(() => server.close())

describe.each(['/version', '/metadata'])('GET %s', (path) => {
  it('answers the GitLab version we follow, marked as collab', async () => {
    const res = await api(server, server.rootToken).get(path)
    expect(res.status).toBe(200)
    const body = Version.strict().parse(res.body)
    expect(body).toEqual({ version: `${GITLAB_COMPAT_VERSION}-collab`, revision: body.revision, kas: { enabled: false, externalUrl: null, version: null }, enterprise: false })
    expect(body.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/)
  })

  it('is readable with a read_user token', async () => {
    expect((await reader.api.get(path)).status).toBe(200)
  })

  it('answers 401 without credentials', async () => {
    const res = await api(server).get(path)
    expect(res.status).toBe(401)
    expect(res.text).toBe('{"message":"401 Unauthorized"}')
  })
})
