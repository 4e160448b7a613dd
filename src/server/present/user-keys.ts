// SSH keys, GPG keys, emails and statuses as GitLab serializes them.
import type { Email, GpgKey, SshKey, UserStatus } from '../../contract/entities/user-keys.js'
import type { EmailRow, GpgKeyRow, SshKeyRow, StatusRow } from '../store/user-keys.js'

export const presentSshKey = (k: SshKeyRow): SshKey => ({
  id: k.id, title: k.title, created_at: k.created_at, expires_at: k.expires_at, key: k.key, usage_type: k.usage_type,
})

export const presentGpgKey = (k: GpgKeyRow): GpgKey => ({ id: k.id, key: k.key, created_at: k.created_at })

export const presentEmail = (e: EmailRow): Email => ({ id: e.id, email: e.email, confirmed_at: e.confirmed_at })

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`)

/** No status is GitLab's empty entity; message_html is the message through the emoji pipeline, which only escapes here. */
export const presentStatus = (s: StatusRow | null): UserStatus => ({
  emoji: s?.emoji ?? null,
  availability: s?.availability ?? null,
  message: s?.message ?? null,
  message_html: s?.message ? escapeHtml(s.message) : '',
  clear_status_at: s?.clear_status_at ?? null,
})
