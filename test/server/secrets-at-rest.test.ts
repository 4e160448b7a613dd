// Secrets the API shows again (CI variable values, trigger tokens) or sends on (hook tokens) are sealed with the
// server key of secrets.json: the database file alone gives none of them away, and the API answers as before.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox } from '../../src/core/secret-box.js'
import { commitGroup } from '../../src/server/store/writes.js'
import { findHook } from '../../src/server/store/hooks.js'
import { api, createGroup, createProject, expectStatus, type Api } from '../helpers/api.js'
import { commit, create } from '../helpers/repository.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

const SECRETS = {
  project: 'project-variable-secret-7f3a',
  group: 'group-variable-secret-91c2',
  instance: 'instance-variable-secret-5d7e',
  hook: 'hook-token-secret-2b8f',
  urlVariable: 'url-variable-secret-3e9a',
  header: 'custom-header-secret-8a1b',
  systemHook: 'system-hook-token-secret-c4d1',
  pipeline: 'pipeline-variable-secret-6b0e',
}

let server: TestServer
let root: Api
let trigger: { id: number; token: string }
let hookIds: number[]
let answers: Record<string, unknown>
let projectId: number
let pipeline: { id: number }

beforeAll(async () => {
  server = await startTestServer()
  root = api(server, server.rootToken)
  const project = await createProject(root, { name: 'sealed' })
  projectId = project.id
  const group = await createGroup(root, { name: 'Sealed', path: 'sealed-group' })
  answers = {
    project: expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'P', value: SECRETS.project }), 201).body,
    group: expectStatus(await root.post(`/groups/${group.id}/variables`, { key: 'G', value: SECRETS.group }), 201).body,
    instance: expectStatus(await root.post('/admin/ci/variables', { key: 'I', value: SECRETS.instance }), 201).body,
  }
  trigger = expectStatus(await root.post(`/projects/${project.id}/triggers`, { description: 'deploy' }), 201).body
  hookIds = [
    expectStatus(await root.post(`/projects/${project.id}/hooks`, {
      url: 'http://example.com/{path}', token: SECRETS.hook,
      url_variables: [{ key: 'path', value: SECRETS.urlVariable }], custom_headers: [{ key: 'X-Secret', value: SECRETS.header }],
    }), 201).body.id,
    expectStatus(await root.post('/hooks', { url: 'http://example.com/s', token: SECRETS.systemHook }), 201).body.id,
  ]
  await commit(root, project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', 'job:\n  script: [echo]\n')] })
  pipeline = expectStatus(await root.post(`/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: 'PV', value: SECRETS.pipeline }] }), 201).body
})
afterAll(() => server.close())

const rawColumn = (table: string, column: string) =>
  (server.app.db.prepare(`SELECT ${column} AS v FROM ${table} ORDER BY id`).all() as { v: string }[]).map((r) => r.v)

describe('secrets at rest', () => {
  it('keeps no variable value, trigger token or hook token in plain text in the database files', () => {
    commitGroup(server.app.db)
    const files = ['collab.db', 'collab.db-wal'].map((f) => join(server.dataDir, f)).filter(existsSync)
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)))
    for (const secret of [...Object.values(SECRETS), trigger.token]) expect(bytes.includes(secret), secret).toBe(false)
  })

  it('stores each one sealed: v1: and base64 of iv, tag and ciphertext, each value with its own IV', () => {
    const sealed = [['ci_variables', 'value'], ['ci_group_variables', 'value'], ['ci_instance_variables', 'value'],
      ['ci_triggers', 'token'], ['web_hooks', 'token'], ['web_hooks', 'url_variables'], ['web_hooks', 'custom_headers']].flatMap(([t, c]) => rawColumn(t, c))
    sealed.push(...(server.app.db.prepare('SELECT value AS v FROM pipeline_variables').all() as { v: string }[]).map((r) => r.v))
    expect(sealed).toHaveLength(11)
    for (const v of sealed) expect(v).toMatch(/^v1:[A-Za-z0-9+/]{40,}={0,2}$/)
    expect(new Set(sealed).size).toBe(11)
  })

  it('answers them through the API exactly as given', async () => {
    const variable = { variable_type: 'env_var', protected: false, masked: false, raw: false, description: null }
    expect(answers).toEqual({
      project: { ...variable, key: 'P', value: SECRETS.project, environment_scope: '*' },
      group: { ...variable, key: 'G', value: SECRETS.group, environment_scope: '*' },
      instance: { ...variable, key: 'I', value: SECRETS.instance },
    })
    expect(expectStatus(await root.get(`/projects/${projectId}/variables/P`), 200).body).toEqual(answers.project)
    expect(expectStatus(await root.get('/groups/sealed-group/variables'), 200).body).toEqual([answers.group])
    expect(expectStatus(await root.get('/admin/ci/variables/I'), 200).body).toEqual(answers.instance)
    expect(trigger.token).toMatch(/^glptt-[0-9a-f]{40}$/)
    const listed = expectStatus(await root.get(`/projects/${projectId}/triggers`), 200).body
    expect(listed.map((t: { id: number; token: string }) => [t.id, t.token])).toEqual([[trigger.id, trigger.token]])
    expect(expectStatus(await root.get(`/projects/${projectId}/pipelines/${pipeline.id}/variables`), 200).body)
      .toEqual([{ key: 'PV', value: SECRETS.pipeline, variable_type: 'env_var' }])
  })

  it('opens hook tokens, URL variables and headers for delivery, whose values the API never shows', async () => {
    const opened = hookIds.map((id) => findHook(server.app.db, id)!).map((h) => [h.token, h.url_variables, h.custom_headers])
    expect(opened).toEqual([
      [SECRETS.hook, JSON.stringify({ path: SECRETS.urlVariable }), JSON.stringify({ 'X-Secret': SECRETS.header })],
      [SECRETS.systemHook, '{}', '{}'],
    ])
    const shown = expectStatus(await root.get(`/projects/${projectId}/hooks/${hookIds[0]}`), 200).body
    expect([shown.url_variables, shown.custom_headers]).toEqual([[{ key: 'path' }], [{ key: 'X-Secret' }]])
  })

  it('answers a value damaged in the file with a 500, never with garbage', async () => {
    const made = expectStatus(await root.post(`/projects/${projectId}/variables`, { key: 'DAMAGED', value: 'to be damaged' }), 201).body
    expect(made.value).toBe('to be damaged')
    commitGroup(server.app.db)
    const [sealed] = server.app.db.prepare("SELECT value FROM ci_variables WHERE key = 'DAMAGED'").pluck().all() as string[]
    const bytes = Buffer.from(sealed.slice(3), 'base64')
    bytes[bytes.length - 1] ^= 1
    const flipped = 'v1:' + bytes.toString('base64')
    server.app.db.prepare("UPDATE ci_variables SET value = ? WHERE key = 'DAMAGED'").run(flipped)
    const res = await root.get(`/projects/${projectId}/variables/DAMAGED`)
    expect([res.status, res.body]).toEqual([500, { message: '500 Internal Server Error' }])
    server.app.db.prepare("DELETE FROM ci_variables WHERE key = 'DAMAGED'").run()
  })

  it('writes the key once, 32 random bytes in secrets.json readable by its owner only', () => {
    const file = join(server.dataDir, 'secrets.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const parsed = JSON.parse(readFileSync(file, 'utf8'))
    expect(Object.keys(parsed)).toEqual(['db_key'])
    const key = Buffer.from(parsed.db_key, 'base64')
    expect(key).toHaveLength(32)
    // The file's key is the one the values are sealed with.
    expect(createSecretBox(key).open(rawColumn('ci_instance_variables', 'value')[0])).toBe(SECRETS.instance)
  })
})

describe('the secret box', () => {
  const box = createSecretBox(Buffer.alloc(32, 7))

  it('refuses a value changed after sealing, or sealed with another key, rather than answer garbage', () => {
    const sealed = box.seal('hunter2')
    expect(box.open(sealed)).toBe('hunter2')
    const bytes = Buffer.from(sealed.slice(3), 'base64')
    bytes[bytes.length - 1] ^= 1
    expect(() => box.open('v1:' + bytes.toString('base64'))).toThrow(/does not decrypt with the server key/)
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed)).toThrow(/does not decrypt with the server key/)
    expect(() => box.open('v1:AAAA')).toThrow(/does not decrypt with the server key/)
    expect(() => box.open('hunter2')).toThrow(/does not decrypt with the server key/)
  })

  it('seals the empty string and any text, and never the same way twice', () => {
    for (const plain of ['', 'v1:looks sealed', 'ünïcødé ✓ \n\t']) expect(box.open(box.seal(plain))).toBe(plain)
    expect(box.seal('same')).not.toBe(box.seal('same'))
  })
})
