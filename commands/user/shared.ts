// What the user verbs share: the columns of a list, and a user named by id or username.
import type { Command } from 'commander'
import { withConnection } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { stateStyle } from '../../src/cli/terminal.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'

/** UserBasic for everyone; administrators also get these fields. */
export type User = ResponseOf<'listUsers'>[number] & { email?: string; is_admin?: boolean; created_at?: string }

export const userColumns = (io: IO): Column<User>[] => [
  { header: 'ID', value: (u) => u.id },
  { header: 'USERNAME', value: (u) => u.username, style: (text) => io.color.bold(text) },
  { header: 'NAME', value: (u) => u.name, flex: true },
  { header: 'STATE', value: (u) => u.state, style: (text) => stateStyle(io, text) },
  { header: 'EMAIL', value: (u) => u.email },
  { header: 'ADMIN', value: (u) => u.is_admin },
  { header: 'CREATED', value: (u) => u.created_at, time: true },
]

/** `<user>` plus --host and --token: a verb on one user. */
export const onUser = (command: Command) => withConnection(command.argument('<user>', 'the user: id or username'))

/** A numeric id as is; a username through GET /users?username=, which answers an exact (case-insensitive) match. */
export async function userId(api: ApiClient, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref)
  const page = await api.list(route('listUsers', {}), { username: ref.replace(/^@/, '') })
  const found = page.items[0]
  if (!found) throw failure(`no user ${ref}`, "'collab user list --search' finds users by part of a name")
  return found.id
}
