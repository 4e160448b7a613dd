// Blame ranges and commit signatures in GitLab's shapes (Entities::BlameRange, Entities::CommitSignature).
import type { CommitSignature } from '../../contract/entities/repository-reads.js'
import type { RequestContext } from '../context.js'
import type { CommitInfo } from '../git/types.js'
import type { CommitSignatureInfo } from '../git/signature.js'
import type { ProjectView } from '../store/projects.js'
import { presentCommit } from './commits.js'

export const presentBlameRange = (r: { commit: CommitInfo; lines: string[] }, p: ProjectView, ctx: Pick<RequestContext, 'baseUrl'>) =>
  ({ commit: presentCommit(r.commit, p, ctx), lines: r.lines })

/**
 * Signatures are read, not verified: no user keys are known to the server, so a GPG or SSH signature is `unknown_key`
 * (GitLab's status for a key no user has added) and an X.509 one `unverified`, with the issuer key GPG names.
 */
export function presentSignature(s: CommitSignatureInfo): CommitSignature {
  if (s.kind === 'PGP') {
    return {
      signature_type: 'PGP', verification_status: 'unknown_key', gpg_key_id: null, gpg_key_primary_keyid: s.issuer,
      gpg_key_user_name: null, gpg_key_user_email: null, gpg_key_subkey_id: null, commit_source: 'gitaly',
    }
  }
  if (s.kind === 'SSH') return { signature_type: 'SSH', verification_status: 'unknown_key', key: null, commit_source: 'gitaly' }
  return { signature_type: 'X509', verification_status: 'unverified', x509_certificate: null, commit_source: 'gitaly' }
}
