// repository_checks_enabled (a periodic git fsck, its result shown to administrators) and housekeeping_enabled (repack and gc by push count).
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { api, createProject, expectStatus } from '../../helpers/api.js'
import { settingsFixture, type SettingsFixture } from '../../helpers/settings.js'
import { checkDueRepositories, scheduleRepositoryChecks } from '../../../src/server/services/repository/repository-checks.js'
import { housekeepAfterPush, housekeepingTask } from '../../../src/server/services/repository/housekeeping.js'
import { DEFAULTS } from '../../../src/server/services/instance/settings-rules.js'

const START = '2024-01-02T03:04:05.000Z'
let clock: SettingsFixture['clock']
let server: SettingsFixture['server']
let root: SettingsFixture['root']
let alice: SettingsFixture['alice']
let set: SettingsFixture['set']

beforeEach(async () => {
  ;({ clock, server, root, alice, set } = await settingsFixture(START))
})
afterEach(() => server.close())
const gitdir = (id: number) => join(server.dataDir, 'repositories', `${id}.git`)

/** Removes one loose object of the repository, as disk corruption would. */
function corrupt(id: number) {
  const objects = join(gitdir(id), 'objects')
  const dir = readdirSync(objects).find((d) => /^[0-9a-f]{2}$/.test(d))!
  rmSync(join(objects, dir), { recursive: true })
}

describe('repository checks', () => {
  it('are for administrators only', async () => {
    const p = await createProject(alice.api, { name: 'demo' })
    expect((await alice.api.get(`/projects/${p.id}/repository_check`)).status).toBe(403)
    expect((await alice.api.post(`/projects/${p.id}/repository_check`)).status).toBe(403)
  })

  it('answer nulls before the first check, then the result of git fsck run on demand', async () => {
    const p = await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    expect(expectStatus(await root.get(`/projects/${p.id}/repository_check`), 200).body).toEqual({ last_repository_check_at: null, last_repository_check_failed: null, output: null })
    expect(expectStatus(await root.post(`/projects/${p.id}/repository_check`), 201).body).toEqual({ last_repository_check_at: START, last_repository_check_failed: false, output: '' })
    corrupt(p.id)
    clock.advance(1000)
    const failed = expectStatus(await root.post(`/projects/${p.id}/repository_check`), 201).body
    expect(failed).toMatchObject({ last_repository_check_at: '2024-01-02T03:04:06.000Z', last_repository_check_failed: true })
    expect(failed.output).toMatch(/missing|broken|invalid|bad/)
    expect(expectStatus(await root.get(`/projects/${p.id}/repository_check`), 200).body).toEqual(failed)
  })

  it('run periodically on repositories never checked or checked a month ago, while the setting is on', async () => {
    const a = await createProject(alice.api, { name: 'a', initialize_with_readme: true })
    const b = await createProject(alice.api, { name: 'b', initialize_with_readme: true })
    await set({ repository_checks_enabled: false })
    expect(await checkDueRepositories(server.app)).toBe(0)
    expect((await root.get(`/projects/${a.id}/repository_check`)).body.last_repository_check_at).toBeNull()

    await set({ repository_checks_enabled: true })
    expect(await checkDueRepositories(server.app)).toBe(2)
    expect((await root.get(`/projects/${b.id}/repository_check`)).body).toMatchObject({ last_repository_check_at: START, last_repository_check_failed: false })

    corrupt(b.id)
    clock.advance(29 * 24 * 3600 * 1000)
    expect(await checkDueRepositories(server.app)).toBe(0)
    clock.advance(2 * 24 * 3600 * 1000)
    expect(await checkDueRepositories(server.app)).toBe(2)
    expect((await root.get(`/projects/${b.id}/repository_check`)).body.last_repository_check_failed).toBe(true)
    expect((await root.get(`/projects/${a.id}/repository_check`)).body.last_repository_check_failed).toBe(false)
  })

  it('are dispatched on a timer by the running server', async () => {
    const p = await createProject(alice.api, { name: 'timed', initialize_with_readme: true })
    const stop = scheduleRepositoryChecks(server.app, 10)
    try {
      await expect.poll(async () => (await root.get(`/projects/${p.id}/repository_check`)).body.last_repository_check_failed, { timeout: 5000 }).toBe(false)
    } finally {
      stop()
    }
  })
})

describe('housekeeping', () => {
  it('picks gc, full or incremental repack by the push count, as GitLab does', () => {
    const s = { ...DEFAULTS, housekeeping_incremental_repack_period: 10, housekeeping_full_repack_period: 50, housekeeping_gc_period: 200 }
    expect([0, 1, 9, 10, 20, 50, 60, 100, 200, 400].map((n) => housekeepingTask(n, s))).toEqual(
      [null, null, null, 'incremental_repack', 'incremental_repack', 'full_repack', 'incremental_repack', 'full_repack', 'gc', 'gc'])
  })

  it('repacks and collects garbage after pushes by the configured periods, and starts counting again after gc', async () => {
    const p = await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    await set({ housekeeping_enabled: true, housekeeping_bitmaps_enabled: true, housekeeping_incremental_repack_period: 1, housekeeping_full_repack_period: 2, housekeeping_gc_period: 4 })
    const tasks = []
    for (let i = 0; i < 5; i++) tasks.push(await housekeepAfterPush(server.app, p.id))
    expect(tasks).toEqual(['incremental_repack', 'full_repack', 'incremental_repack', 'gc', 'incremental_repack'])
    const objects = readdirSync(join(gitdir(p.id), 'objects'))
    expect(objects.filter((d) => /^[0-9a-f]{2}$/.test(d))).toEqual([])
    expect(readdirSync(join(gitdir(p.id), 'objects', 'pack')).some((f) => f.endsWith('.pack'))).toBe(true)
    expect(expectStatus(await alice.api.get(`/projects/${p.id}/repository/files/README.md`, { query: { ref: 'main' } }), 200).body.file_name).toBe('README.md')
  })

  it('does nothing while turned off', async () => {
    const p = await createProject(alice.api, { name: 'demo', initialize_with_readme: true })
    await set({ housekeeping_enabled: false })
    expect(await housekeepAfterPush(server.app, p.id)).toBeNull()
    expect(readdirSync(join(gitdir(p.id), 'objects')).some((d) => /^[0-9a-f]{2}$/.test(d))).toBe(true)
  })
})
