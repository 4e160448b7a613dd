// Seals secrets kept at rest (CI variable values, trigger and hook tokens) with the server's key: AES-256-GCM.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

/** The key's length in bytes: AES-256. */
export const SECRET_KEY_BYTES = 32

/** Marks a sealed value; the version names the cipher and layout, so a later one can be told apart and re-sealed. */
export const SEALED_PREFIX = 'v1:'

const IV_BYTES = 12
const TAG_BYTES = 16

export interface SecretBox {
  /** `v1:` + base64 of iv | tag | ciphertext; a fresh IV each time, so equal values never look equal. */
  seal(plain: string): string
  /** The plain text of a sealed value; throws when it was not sealed with this key or was changed since. */
  open(sealed: string): string
}

export const isSealed = (value: string) => value.startsWith(SEALED_PREFIX)

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secret key is ${SECRET_KEY_BYTES} bytes, not ${key.length}`)
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')
    },
    open(sealed) {
      const bytes = isSealed(sealed) ? Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64') : Buffer.alloc(0)
      if (bytes.length < IV_BYTES + TAG_BYTES) throw undecryptable()
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
      } catch (err) {
        throw undecryptable(err)
      }
    },
  }
}

// A value that fails authentication is an error, never garbage handed on to a job or a client. Not a CollabError:
// a request that meets one answers the plain 500 and the server logs it, for an operator to look at the database.
const undecryptable = (cause?: unknown) =>
  new Error('a stored secret does not decrypt with the server key (wrong key, or the value was damaged)', { cause })
