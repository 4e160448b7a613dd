// A database from before migration 028 holds its secrets in plain text: the first boot seals them with a new key and
// they read the same; later boots need that key, and a missing, damaged or different one stops the server at once.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { silentLogger } from '../../src/core/logger.js'
import { createServer } from '../../src/server/app.js'
import { boot } from '../../src/server/boot.js'
import { closeDatabase } from '../../src/server/store/db.js'
import { findHook } from '../../src/server/store/hooks.js'
import { api, expectStatus } from '../helpers/api.js'
import { oldDatabases } from '../helpers/migrations.js'

const databaseAt = oldDatabases('secrets-at-rest')
const ROOT_TOKEN = 'glpat-secrets-migration-000000000'
const TOKEN = 'glptt-0123456789abcdef0123456789abcdef01234567'
const TOKEN_HASH = '0f0f'

// Plain text as an earlier collab wrote it; one value only looks sealed, and must come back as it was; one was deleted,
// but its bytes are still in the file.
const SEED = `
  INSERT INTO users (id, username, email, name, is_admin, created_at) VALUES (1, 'root', 'root@localhost', 'Administrator', 1, 't');
  INSERT INTO namespaces (id, kind, name, path, full_path, full_name, owner_id, created_at) VALUES (1, 'user', 'root', 'root', 'root', 'Administrator', 1, 't');
  INSERT INTO namespaces (id, kind, name, path, full_path, full_name, created_at) VALUES (2, 'group', 'Ops', 'ops', 'ops', 'Ops', 't');
  INSERT INTO projects (id, namespace_id, name, path, creator_id, created_at, updated_at, last_activity_at, runners_token)
    VALUES (1, 1, 'p', 'p', 1, 't', 't', 't', 'x');
  INSERT INTO ci_variables (id, project_id, key, value) VALUES (1, 1, 'PLAIN', 'old-project-secret'), (2, 1, 'LOOKS_SEALED', 'v1:not-really');
  INSERT INTO ci_group_variables (id, group_id, key, value) VALUES (1, 2, 'G', 'old-group-secret');
  INSERT INTO ci_variables (id, project_id, key, value) VALUES (3, 1, 'GONE', 'deleted-project-secret');
  DELETE FROM ci_variables WHERE id = 3;
  INSERT INTO ci_instance_variables (id, key, value) VALUES (1, 'I', 'old-instance-secret');
  INSERT INTO ci_triggers (id, project_id, owner_id, description, token, token_hash, created_at, updated_at)
    VALUES (1, 1, 1, 'deploy', '${TOKEN}', '${TOKEN_HASH}', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z');
  INSERT INTO web_hooks (id, type, project_id, url, token, url_variables, custom_headers, created_at) VALUES
    (1, 'ProjectHook', 1, 'http://example.com/{v}', 'old-hook-token', '{"v":"old-url-secret"}', '{"X-K":"old-header-secret"}', 't'),
    (2, 'ProjectHook', 1, 'http://example.com/none', NULL, '{}', '{}', 't');
`
const PLAIN = ['deleted-project-secret', 'old-project-secret', 'v1:not-really', 'old-group-secret', 'old-instance-secret', TOKEN, 'old-hook-token',
  'old-url-secret', 'old-header-secret']

const bootAt = (dataDir: string) => boot({ dataDir, log: silentLogger, rootToken: ROOT_TOKEN })

function rawSecrets(db: ReturnType<typeof bootAt>['app']['db']) {
  const q = (sql: string) => (db.prepare(sql).all() as { v: string | null }[]).map((r) => r.v)
  return [...q('SELECT value AS v FROM ci_variables ORDER BY id'), ...q('SELECT value AS v FROM ci_group_variables'),
    ...q('SELECT value AS v FROM ci_instance_variables'), ...q('SELECT token AS v FROM ci_triggers'), ...q('SELECT token AS v FROM web_hooks ORDER BY id'),
    ...q('SELECT url_variables AS v FROM web_hooks ORDER BY id'), ...q('SELECT custom_headers AS v FROM web_hooks ORDER BY id')]
}

/** What the API and hook delivery read, through a real server on the booted data directory. */
async function readBack(dataDir: string) {
  const { app } = bootAt(dataDir)
  const server = createServer(app)
  try {
    const root = api({ url: (await server.listen(0, '127.0.0.1')).url }, ROOT_TOKEN)
    const values = (res: { body: { key: string; value: string }[] }) => res.body.map((v) => [v.key, v.value])
    return {
      raw: rawSecrets(app.db),
      project: values(expectStatus(await root.get('/projects/1/variables'), 200)),
      group: values(expectStatus(await root.get('/groups/2/variables'), 200)),
      instance: values(expectStatus(await root.get('/admin/ci/variables'), 200)),
      triggers: expectStatus(await root.get('/projects/1/triggers'), 200).body.map((t: { token: string }) => t.token),
      hooks: [1, 2].map((id) => findHook(app.db, id)!).map((h) => [h.token, h.url_variables, h.custom_headers]),
    }
  } finally {
    await server.close()
    closeDatabase(app.db)
  }
}

const EXPECTED = {
  project: [['PLAIN', 'old-project-secret'], ['LOOKS_SEALED', 'v1:not-really']],
  group: [['G', 'old-group-secret']],
  instance: [['I', 'old-instance-secret']],
  triggers: [TOKEN],
  hooks: [['old-hook-token', '{"v":"old-url-secret"}', '{"X-K":"old-header-secret"}'], [null, '{}', '{}']],
}

it('seals plain-text secrets of an earlier database on the first boot, and they read the same then and after', async () => {
  const dataDir = dirname(databaseAt(27, SEED))
  const first = await readBack(dataDir)
  expect({ ...first, raw: undefined }).toEqual({ ...EXPECTED, raw: undefined })
  expect(first.raw.filter((v) => v === null)).toHaveLength(1)
  for (const v of first.raw.filter((v) => v !== null)) expect(v).toMatch(/^v1:[A-Za-z0-9+/]+={0,2}$/)
  const bytes = readFileSync(join(dataDir, 'collab.db'))
  for (const secret of PLAIN) expect(bytes.includes(secret), secret).toBe(false)
  // A second boot seals nothing twice: the stored values are untouched and still open to the same text.
  const second = await readBack(dataDir)
  expect(second).toEqual({ ...EXPECTED, raw: first.raw })
})

it('refuses to start with a different, damaged, unreadable or missing key, and says which file to restore', async () => {
  const dataDir = dirname(databaseAt(27, SEED))
  closeDatabase(bootAt(dataDir).app.db)
  const keyFile = join(dataDir, 'secrets.json')
  const good = readFileSync(keyFile, 'utf8')

  writeFileSync(keyFile, JSON.stringify({ db_key: Buffer.alloc(32, 1).toString('base64') }))
  expect(() => bootAt(dataDir)).toThrow(`${keyFile} does not hold the key this database's secrets were sealed with: restore the key file backed up with the database`)
  for (const damaged of ['{"db_key": "c2hvcnQ="}', 'not json', '{"db_key": 5}', good.slice(0, 20)]) {
    writeFileSync(keyFile, damaged)
    expect(() => bootAt(dataDir)).toThrow(`${keyFile} is malformed: expected {"db_key": "<base64 of 32 bytes>"}`)
  }
  rmSync(keyFile)
  mkdirSync(keyFile)
  expect(() => bootAt(dataDir)).toThrow(`${keyFile} cannot be read (EISDIR)`)
  rmSync(keyFile, { recursive: true })
  expect(() => bootAt(dataDir)).toThrow(`${keyFile} is missing, and the database holds secrets sealed with it: restore the key backed up with the database`)
  expect(existsSync(keyFile)).toBe(false)

  // Each refusal closed the database again: with the right key back, the same process opens it.
  writeFileSync(keyFile, good)
  expect(await readBack(dataDir)).toMatchObject(EXPECTED)
})
