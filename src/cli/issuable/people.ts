// Names to ids for creating and editing issues and merge requests: `--assignee alice` or `--assignee 3`,
// `--milestone v1.0` or `--milestone 7`.
import type { ApiClient } from '../../client/http.js'
import { route } from '../../client/paths.js'
import { usageError } from '../errors.js'

/** Numbers are ids already; names are looked up (GET /users?username=), each once. */
export async function userIds(api: ApiClient, names: string[] | undefined, flag: string): Promise<number[] | undefined> {
  if (names === undefined) return undefined
  return Promise.all(names.map(async (name) => {
    if (name === '@me') return (await api.get(route('getCurrentUser', {}))).id
    const username = name.replace(/^@/, '')
    if (/^\d+$/.test(username)) return Number(username)
    const [user] = await api.get(route('listUsers', {}), { username })
    if (!user) throw usageError(`${flag}: no user is named '${username}'`)
    return user.id
  }))
}

/** A milestone's global id from its id or its title in the project; `0` or `none` removes it on edit. */
export async function milestoneId(api: ApiClient, project: string, value: string | undefined): Promise<number | undefined> {
  if (value === undefined) return undefined
  if (/^\d+$/.test(value)) return Number(value)
  if (value.toLowerCase() === 'none') return 0
  const [milestone] = await api.get(route('listProjectMilestones', { id: project }), { title: value })
  if (!milestone) throw usageError(`--milestone: no milestone is titled '${value}' in ${project}`)
  return milestone.id
}
