// SSH keys, GPG keys, emails and status of a user (lib/api/entities/ssh_key.rb, gpg_key.rb, email.rb, user_status.rb).
import { z } from 'zod'
import { UserPublic } from './users.js'

const nstr = z.string().nullable()

export const SshKey = z.object({
  id: z.number().int(), title: z.string(), created_at: z.string(), expires_at: nstr, key: z.string(), usage_type: z.string(),
})
export type SshKey = z.infer<typeof SshKey>

/** GET /keys/:id and /keys?fingerprint= add the owner (Entities::SSHKeyWithUser). */
export const SshKeyWithUser = SshKey.extend({ user: UserPublic })

export const GpgKey = z.object({ id: z.number().int(), key: z.string(), created_at: z.string() })
export type GpgKey = z.infer<typeof GpgKey>

export const Email = z.object({ id: z.number().int(), email: z.string(), confirmed_at: nstr })
export type Email = z.infer<typeof Email>

export const UserStatus = z.object({
  emoji: nstr, availability: nstr, message: nstr, message_html: z.string(), clear_status_at: nstr,
})
export type UserStatus = z.infer<typeof UserStatus>
