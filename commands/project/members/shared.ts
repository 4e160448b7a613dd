// What the member verbs share: `<user>` as id or username, and the --access-level flag.
import { Option, type Command, type OptionValues } from 'commander'
import { parseAccessLevel } from '../../../src/cli/access-level.js'
import { withConnection, withJson, withProject } from '../../../src/cli/command.js'
import { failure } from '../../../src/cli/errors.js'
import type { ApiClient } from '../../../src/client/http.js'
import { route } from '../../../src/client/paths.js'

export const onProjectMembers = (command: Command) => withProject(withConnection(command))

/** What `members add` and `members edit` take: a user, an access level, an optional end date. */
export interface MemberLevelOptions {
  project?: string
  user: string
  accessLevel: number
  expiresAt?: string
  json: boolean
}

export const withMemberLevel = (command: Command) =>
  withJson(onProjectMembers(command
    .argument('<user>', 'user id or username')
    .addOption(new Option('-a, --access-level <level>', 'guest, reporter, developer, maintainer, owner (or 10-50)').argParser(parseAccessLevel).makeOptionMandatory())
    .option('--expires-at <date>', 'membership ends on this date (YYYY-MM-DD)')))

export const memberLevelOptions = (user: string, flags: OptionValues): MemberLevelOptions => ({
  project: flags.project,
  user,
  accessLevel: flags.accessLevel,
  expiresAt: flags.expiresAt,
  json: flags.json === true,
})

/** Members are addressed by user id; a username is looked up with GET /users?username=. */
export async function userId(api: ApiClient, user: string): Promise<number> {
  if (/^\d+$/.test(user)) return Number(user)
  const name = user.replace(/^@/, '')
  const found = await api.get(route('listUsers', {}), { username: name })
  const match = found.find((u) => u.username.toLowerCase() === name.toLowerCase())
  if (!match) throw failure(`no user named '${name}'`)
  return match.id
}
