// Shapes of the repository reads of issue 15: blobs, blame ranges, commit signatures (GitLab's Entities::*).
import { z } from 'zod'
import { Commit } from './repository.js'

export const Blob = z.object({ size: z.number().int(), encoding: z.literal('base64'), content: z.string(), sha: z.string() })

export const BlameRange = z.object({ commit: Commit, lines: z.array(z.string()) })

/** Entities::CommitSignature for a GPG signature (signature_type PGP). */
const GpgSignature = z.object({
  signature_type: z.literal('PGP'),
  verification_status: z.string(),
  gpg_key_id: z.number().int().nullable(),
  gpg_key_primary_keyid: z.string().nullable(),
  gpg_key_user_name: z.string().nullable(),
  gpg_key_user_email: z.string().nullable(),
  gpg_key_subkey_id: z.number().int().nullable(),
  commit_source: z.string(),
})

const SshSignature = z.object({
  signature_type: z.literal('SSH'),
  verification_status: z.string(),
  key: z.object({ id: z.number().int(), title: z.string(), key: z.string(), created_at: z.string(), expires_at: z.string().nullable() }).nullable(),
  commit_source: z.string(),
})

const X509Signature = z.object({
  signature_type: z.literal('X509'),
  verification_status: z.string(),
  x509_certificate: z.object({
    id: z.number().int().nullable(), subject: z.string(), subject_key_identifier: z.string(), email: z.string().nullable(),
    serial_number: z.string(), certificate_status: z.string(),
    x509_issuer: z.object({ id: z.number().int().nullable(), subject: z.string(), subject_key_identifier: z.string(), crl_url: z.string().nullable() }),
  }).nullable(),
  commit_source: z.string(),
})

export const CommitSignature = z.union([GpgSignature, SshSignature, X509Signature])
export type CommitSignature = z.infer<typeof CommitSignature>
