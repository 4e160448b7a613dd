// Push mirrors as GitLab's Entities::RemoteMirror shows them: the URL with its credentials masked, never the credentials.
import type { RemoteMirror } from '../../contract/entities/remote-mirrors.js'
import { maskedMirrorUrl, parseMirrorCredentials } from '../../core/mirror-url.js'
import type { RemoteMirrorRow } from '../store/remote-mirrors.js'

export const presentRemoteMirror = (m: RemoteMirrorRow): RemoteMirror => ({
  id: m.id,
  enabled: m.enabled === 1,
  url: maskedMirrorUrl(m.url, parseMirrorCredentials(m.credentials)),
  update_status: m.update_status,
  last_update_at: m.last_update_at,
  last_update_started_at: m.last_update_started_at,
  last_successful_update_at: m.last_successful_update_at,
  last_error: m.last_error,
  only_protected_branches: m.only_protected_branches === 1,
  keep_divergent_refs: m.keep_divergent_refs === 1,
  auth_method: m.auth_method === 'ssh_public_key' ? 'ssh_public_key' : 'password',
  host_keys: [],
  mirror_branch_regex: m.mirror_branch_regex,
})
