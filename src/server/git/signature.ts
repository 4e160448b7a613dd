// A commit's signature as stored in its `gpgsig` header: its kind, and for OpenPGP the key that made it.
import { readCommitGpgsig } from './read.js'

export type SignatureKind = 'PGP' | 'SSH' | 'X509'

export interface CommitSignatureInfo { kind: SignatureKind; armored: string; issuer: string | null }

/** The signature of a commit, or null when it is unsigned. */
export async function readCommitSignature(gitdir: string, oid: string): Promise<CommitSignatureInfo | null> {
  const armored = await readCommitGpgsig(gitdir, oid)
  if (!armored) return null
  if (armored.includes('-----BEGIN SSH SIGNATURE-----')) return { kind: 'SSH', armored, issuer: null }
  if (armored.includes('-----BEGIN PGP SIGNATURE-----')) return { kind: 'PGP', armored, issuer: pgpIssuer(armored) }
  return { kind: 'X509', armored, issuer: null }
}

/** The body of an ASCII-armored block, decoded (headers and the CRC line dropped). */
function dearmor(armored: string): Buffer {
  const body = armored.split(/\r?\n\r?\n/).slice(1).join('\n')
  return Buffer.from(body.split('\n').filter((l) => !l.startsWith('=') && !l.startsWith('-----')).join(''), 'base64')
}

/**
 * The issuer of an OpenPGP v4 signature packet (RFC 4880 §5.2.3): the fingerprint subpacket (33) when present, else
 * the 8-byte key id (16), upper-case hex as GPGME reports it for a key it does not have. Null for anything else.
 */
export function pgpIssuer(armored: string): string | null {
  try {
    return issuerOf(dearmor(armored))
  } catch {
    // A truncated packet reads past its end: a signature we cannot read names no key.
    return null
  }
}

function issuerOf(b: Buffer): string | null {
  if (b.length < 2 || (b[0] & 0x80) === 0) return null
  let at: number
  if (b[0] & 0x40) at = b[1] < 192 ? 2 : b[1] < 224 ? 3 : 6
  else at = 1 + [1, 2, 4, 0][b[0] & 3]
  if (b[at] !== 4) return null
  const hashedLength = b.readUInt16BE(at + 4)
  const hashed = b.subarray(at + 6, at + 6 + hashedLength)
  const unhashedAt = at + 6 + hashedLength
  const unhashed = b.subarray(unhashedAt + 2, unhashedAt + 2 + b.readUInt16BE(unhashedAt))
  let keyId: string | null = null
  for (const [type, data] of [...subpackets(hashed), ...subpackets(unhashed)]) {
    if (type === 33 && data.length > 1) return data.subarray(1).toString('hex').toUpperCase()
    if (type === 16 && data.length === 8) keyId = data.toString('hex').toUpperCase()
  }
  return keyId
}

function* subpackets(area: Buffer): Generator<[number, Buffer]> {
  let i = 0
  while (i < area.length) {
    let len = area[i]
    if (len < 192) i += 1
    else if (len < 255) { len = ((len - 192) << 8) + area[i + 1] + 192; i += 2 } else { len = area.readUInt32BE(i + 1); i += 5 }
    if (len === 0 || i + len > area.length) return
    yield [area[i] & 0x7f, area.subarray(i + 1, i + len)]
    i += len
  }
}
