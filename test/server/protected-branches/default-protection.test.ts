// default_branch_protection: the rule a new project's default branch gets when it first appears (readme, first API commit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, expectStatus } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { settingsFixture, type SettingsFixture } from '../../helpers/settings.js'

let f: SettingsFixture
let projects = 0

beforeAll(async () => {
  f = await settingsFixture('2024-01-02T03:04:05Z')
})
afterAll(() => f.server.close())

const levelsOf = (rule: any) => [rule.name, rule.push_access_levels[0].access_level, rule.merge_access_levels[0].access_level]
const rulesOf = async (id: number) => expectStatus(await f.alice.api.get(`/projects/${id}/protected_branches`), 200).body.map(levelsOf)

describe('default_branch_protection on new projects', () => {
  it.each([
    [0, []],
    [1, [['main', 30, 40]]],
    [2, [['main', 40, 40]]],
    // 3: protected against pushes, Developers merge; 4: full protection after the initial push (which is made here).
    [3, [['main', 40, 30]]],
    [4, [['main', 40, 40]]],
  ])('%i protects a readme-initialized default branch as %j', async (setting, expected) => {
    await f.set({ default_branch_protection: setting })
    const p = await createProject(f.alice.api, { name: `readme-${++projects}`, initialize_with_readme: true })
    expect(await rulesOf(p.id)).toEqual(expected)
    const branch = expectStatus(await f.alice.api.get(`${repo(p.id)}/branches/main`), 200).body
    expect(branch.protected).toBe(expected.length > 0)
    expect(branch.developers_can_push).toBe(setting === 1)
  })

  it('waits for the first commit of an empty project, on whichever branch becomes the default', async () => {
    await f.set({ default_branch_protection: 2 })
    const p = await createProject(f.alice.api, { name: `empty-${++projects}` })
    expect(await rulesOf(p.id)).toEqual([])
    await commit(f.alice.api, p.id, { branch: 'trunk', commit_message: 'First', actions: [create('a.txt', 'a\n')] })
    expect(await rulesOf(p.id)).toEqual([['trunk', 40, 40]])
    // Later branches are not the default: no rule for them.
    await commit(f.alice.api, p.id, { branch: 'side', start_branch: 'trunk', commit_message: 'Side', actions: [create('b.txt', 'b\n')] })
    expect(await rulesOf(p.id)).toEqual([['trunk', 40, 40]])
  })

  it('adds no rule when one already covers the default branch', async () => {
    await f.set({ default_branch_protection: 2 })
    const p = await createProject(f.alice.api, { name: `covered-${++projects}` })
    expectStatus(await f.alice.api.post(`/projects/${p.id}/protected_branches`, { name: 'ma*', push_access_level: 30 }), 201)
    await commit(f.alice.api, p.id, { commit_message: 'First', actions: [create('a.txt', 'a\n')] })
    expect(await rulesOf(p.id)).toEqual([['ma*', 30, 40]])
  })

  it('leaves existing projects alone when the setting changes', async () => {
    await f.set({ default_branch_protection: 0 })
    const p = await createProject(f.alice.api, { name: `before-${++projects}`, initialize_with_readme: true })
    await f.set({ default_branch_protection: 2 })
    await commit(f.alice.api, p.id, { branch: 'main', commit_message: 'Second', actions: [create('b.txt', 'b\n')] })
    expect(await rulesOf(p.id)).toEqual([])
  })
})
