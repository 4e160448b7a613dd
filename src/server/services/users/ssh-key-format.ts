// OpenSSH public keys: the one-line format, the key types GitLab takes, and its two fingerprints.
import { createHash } from 'node:crypto'

const TYPES = new Map([
  ['ssh-rsa', 'RSA'], ['ssh-dss', 'DSA'], ['ecdsa-sha2-nistp256', 'ECDSA'], ['ecdsa-sha2-nistp384', 'ECDSA'],
  ['ecdsa-sha2-nistp521', 'ECDSA'], ['ssh-ed25519', 'ED25519'], ['sk-ecdsa-sha2-nistp256@openssh.com', 'ECDSA_SK'],
  ['sk-ssh-ed25519@openssh.com', 'ED25519_SK'],
])

export interface ParsedKey { type: string; publishable: string; fingerprint: string; fingerprintSha256: string }

/** The strings of an SSH wire-format blob (uint32 length + bytes each), or null if the lengths do not add up. */
function wireStrings(blob: Buffer): Buffer[] | null {
  const out: Buffer[] = []
  let at = 0
  while (at < blob.length) {
    if (at + 4 > blob.length) return null
    const len = blob.readUInt32BE(at)
    if (at + 4 + len > blob.length) return null
    out.push(blob.subarray(at + 4, at + 4 + len))
    at += 4 + len
  }
  return out
}

/** `type base64 [comment]` with the blob's own type matching the declared one; null for anything else. */
export function parseSshKey(text: string): ParsedKey | null {
  const parts = text.trim().split(/\s+/)
  if (parts.length < 2 || !TYPES.has(parts[0]!) || !/^[A-Za-z0-9+/]+={0,2}$/.test(parts[1]!)) return null
  const blob = Buffer.from(parts[1]!, 'base64')
  const fields = wireStrings(blob)
  if (!fields || fields.length < 2 || fields[0]!.toString('latin1') !== parts[0]) return null
  if (parts[0] === 'ssh-ed25519' && fields[1]!.length !== 32) return null
  const md5 = createHash('md5').update(blob).digest('hex').replace(/(..)(?!$)/g, '$1:')
  const sha = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')
  // GitLab keeps the comment in the key it shows back (publishable_key is type, blob and comment).
  return { type: TYPES.get(parts[0]!)!, publishable: parts.join(' '), fingerprint: md5, fingerprintSha256: `SHA256:${sha}` }
}

export const TYPE_MESSAGE = 'type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'
