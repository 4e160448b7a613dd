// Secrets: random tokens shown once, stored only as SHA-256 hashes; passwords as scrypt hashes.
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto'

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** `glpat-` keeps secret scanners and GitLab tooling recognising our personal tokens. */
export const newToken = (prefix = 'glpat-') => prefix + randomBytes(20).toString('base64url')

const encode = (salt: Buffer, key: Buffer) => `scrypt$${salt.toString('base64')}$${key.toString('base64')}`

/** For start-up only (the root password from the environment), before anything is served. */
export function hashPasswordSync(password: string): string {
  const salt = randomBytes(16)
  return encode(salt, scryptSync(password, salt, 32))
}

/** On libuv's threadpool, like verifyPassword: a request must not hold the event loop for a hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await new Promise<Buffer>((resolve, reject) => scrypt(password, salt, 32, (err, derived) => (err ? reject(err) : resolve(derived))))
  return encode(salt, key)
}

/** Compares on libuv's threadpool: scrypt is built to be slow, and a check must not hold the event loop that long. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false
  const [scheme, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !key) return false
  const expected = Buffer.from(key, 'base64')
  const actual = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, Buffer.from(salt, 'base64'), expected.length, (err, derived) => (err ? reject(err) : resolve(derived))))
  return timingSafeEqual(expected, actual)
}
