// The server's key for secrets at rest: 32 random bytes in the data directory's secrets.json, made on first boot.
import { randomBytes } from 'node:crypto'
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { CollabError, type ErrorCode } from '../core/errors.js'
import { SECRET_KEY_BYTES } from '../core/secret-box.js'

interface SecretsFile { db_key: string }

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/**
 * Reads the key, or creates it when there is none and `mayCreate` (the database holds nothing sealed yet): a new key
 * for a database sealed with a lost one would only make every secret unreadable, so then we refuse to start instead.
 */
export function loadServerKey(file: string, mayCreate: boolean): Buffer {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && mayCreate) return createServerKey(file)
    if (code === 'ENOENT') {
      throw keyError('SERVER_KEY_MISSING', `${file} is missing, and the database holds secrets sealed with it: restore the key backed up with the database`)
    }
    throw keyError('SERVER_KEY_UNREADABLE', `${file} cannot be read (${code ?? String(err)})`, err)
  }
  return parseServerKey(file, text)
}

function parseServerKey(file: string, text: string): Buffer {
  let parsed: Partial<SecretsFile> | null = null
  try {
    parsed = JSON.parse(text) as Partial<SecretsFile>
  } catch {
    // reported below with every other malformed file
  }
  const encoded = parsed && typeof parsed === 'object' ? parsed.db_key : undefined
  const key = typeof encoded === 'string' && BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : null
  if (!key || key.length !== SECRET_KEY_BYTES) {
    throw keyError('SERVER_KEY_MALFORMED', `${file} is malformed: expected {"db_key": "<base64 of ${SECRET_KEY_BYTES} bytes>"}`)
  }
  return key
}

// Written beside its final name and renamed, so a crash never leaves half a key that a later boot would reject.
function createServerKey(file: string): Buffer {
  const key = randomBytes(SECRET_KEY_BYTES)
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
  const body: SecretsFile = { db_key: key.toString('base64') }
  try {
    writeFileSync(temp, JSON.stringify(body, null, 2) + '\n', { mode: 0o600, flag: 'wx', flush: true })
    renameSync(temp, file)
  } catch (err) {
    rmSync(temp, { force: true })
    throw keyError('SERVER_KEY_UNWRITABLE', `${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? String(err)})`, err)
  }
  return key
}

const keyError = (code: ErrorCode, message: string, cause?: unknown) => new CollabError(code, message, { cause })
