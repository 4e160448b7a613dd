// Fixtures and expected shapes for issue tests.
import { expectStatus, type Api, type TestUser } from './api.js'
import type { TestServer } from './server.js'

export const userBasic = (server: Pick<TestServer, 'url'>, u: Pick<TestUser, 'id' | 'username'> & { name?: string }) => ({
  id: u.id, username: u.username, name: u.name ?? `User ${u.username}`, state: 'active', avatar_url: `${server.url}/uploads/-/system/user/avatar/${u.id}/identicon.svg`, web_url: `${server.url}/${u.username}`,
})

export const noTime = { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null }

export async function createIssue(as: Api, projectId: number, input: Record<string, unknown>): Promise<any> {
  return expectStatus(await as.post(`/projects/${projectId}/issues`, input), 201).body
}

export const issuePath = (projectId: number, iid: number, rest = '') => `/projects/${projectId}/issues/${iid}${rest}`
