// Push mirror shape: GitLab's `Entities::RemoteMirror` (lib/api/entities/remote_mirror.rb, with EE's mirror_branch_regex).
import { z } from 'zod'

/** `RemoteMirror#update_status`: none until the first update, to_retry between failed attempts, failed after the last. */
export const MIRROR_STATUSES = ['none', 'started', 'finished', 'to_retry', 'failed'] as const

export const RemoteMirror = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  /** Credentials masked: `https://*****:*****@host/path.git`. */
  url: z.string(),
  update_status: z.enum(MIRROR_STATUSES),
  last_update_at: z.string().nullable(),
  last_update_started_at: z.string().nullable(),
  last_successful_update_at: z.string().nullable(),
  last_error: z.string().nullable(),
  only_protected_branches: z.boolean(),
  keep_divergent_refs: z.boolean(),
  auth_method: z.enum(['password', 'ssh_public_key']),
  /** SSH known hosts' fingerprints; HTTP mirrors have none. */
  host_keys: z.array(z.object({ fingerprint_sha256: z.string() })),
  mirror_branch_regex: z.string().nullable(),
})
export type RemoteMirror = z.infer<typeof RemoteMirror>
