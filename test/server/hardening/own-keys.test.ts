// Lookups of client- or repository-supplied names in constant tables see only the tables' own keys, never Object's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { languageOf, languageShares } from '../../../src/server/services/repository/languages.js'
import { visibilityName } from '../../../src/server/services/instance/settings-rules.js'
import { api } from '../../helpers/api.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

describe('constant tables keyed by outside names', () => {
  it.each(['constructor', 'toString', 'lib/valueOf', '__proto__'])('a file named %j has no language', (path) => {
    expect(languageOf(path)).toBeUndefined()
  })

  it('a repository with a file named constructor counts only real languages', () => {
    expect(languageShares([{ path: 'constructor', size: 10 }, { path: 'a.rb', size: 10 }, { path: 'toString', size: 10 }])).toEqual({ Ruby: 100 })
  })

  it.each(['constructor', 'toString', ' hasOwnProperty '])('%j is not a visibility level', (level) => expect(visibilityName(level)).toBeUndefined())

  describe('restricted_visibility_levels over the API', () => {
    let server: TestServer
    beforeAll(async () => { server = await startTestServer() })
    afterAll(() => server.close())

    it('answers 400 naming the level and keeps the setting', async () => {
      const root = api(server, server.rootToken)
      const res = await root.put('/application/settings', { restricted_visibility_levels: ['constructor'] })
      expect([res.status, res.body]).toEqual([400, { message: { restricted_visibility_levels: ["'constructor' is not a valid visibility level"] } }])
      expect((await root.get('/application/settings')).body.restricted_visibility_levels).toBeNull()
    })
  })
})
