// Odd values in every parameter of the repository reads, uploads and project administration answer 4xx, never 5xx.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../../helpers/api.js'
import { commit, create, repo } from '../../helpers/repository.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'
let server: TestServer
let alice: TestUser
let id: number
beforeAll(async () => {
  server = await startTestServer()
  alice = await createUser(server, 'alice')
  id = (await createProject(alice.api, { name: 'h' })).id
  await commit(alice.api, id, { branch: 'main', commit_message: 'a', actions: [create('a.txt', 'a\n')] })
})
afterAll(() => server.close())
const values = ['', '..', '%00', '%2e%2e%2f', 'a'.repeat(5000), '-x', '--output=x', 'HEAD~9999', ':(glob)*', '[]', '%FF']
it('never answers 5xx to odd ids, refs, paths, ranges or formats', async () => {
  const bad: string[] = []
  for (const v of values) {
    for (const path of [`archive.${v}`, `archive?sha=${v}`, `archive?path=${v}`, `archive?exclude_paths[]=${v}`, `files/${v}/blame`, `files/a.txt/blame?range[start]=${v}&range[end]=1`, `files/a.txt/blame?range=${v}`,
      `blobs/${v}`, `blobs/${v}/raw`, `merge_base?refs[]=${v}&refs[]=main`, `merge_base?refs=${v}`, `commits/${v}/signature`]) {
      const res = await alice.api.get(`${repo(id)}/${path}`)
      if (res.status >= 500) bad.push(`${path} ${res.status} ${res.text}`)
    }
    for (const [p, body] of [[`commits/${v}/revert`, { branch: 'main' }], [`commits/main/revert`, { branch: v, dry_run: v }]] as const) {
      const res = await alice.api.post(`${repo(id)}/${p}`, body)
      if (res.status >= 500) bad.push(`POST ${p} ${res.status} ${res.text}`)
    }
    for (const p of [`/projects/${id}/uploads/${v}/${v}`, `/projects/${id}/transfer?namespace=${v}`, `/projects/${id}/groups?skip_groups=${v}`]) {
      const res = p.includes('transfer') ? await alice.api.put(p) : await alice.api.get(p)
      if (res.status >= 500) bad.push(`${p} ${res.status} ${res.text}`)
    }
  }
  expect(bad).toEqual([])
}, 120000)
