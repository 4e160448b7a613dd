// Tokens in the OS keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) through
// @napi-rs/keyring, loaded only when a token is stored, read or forgotten. Where no keyring answers (CI, servers,
// containers without a session bus) the token goes to config.json instead, as gh does; COLLAB_NO_KEYRING=1 says so.
import type { Env } from './io.js'

const SERVICE = 'collab'

async function entry(env: Env, host: string) {
  if (env.COLLAB_NO_KEYRING) throw new Error('COLLAB_NO_KEYRING is set')
  const { Entry } = await import('@napi-rs/keyring')
  return new Entry(SERVICE, host)
}

/** Undefined once the keyring holds the token; else the reason it could not. */
export async function storeInKeyring(env: Env, host: string, token: string): Promise<string | undefined> {
  try {
    ;(await entry(env, host)).setPassword(token)
    return undefined
  } catch (err) {
    return (err as Error).message
  }
}

export async function readFromKeyring(env: Env, host: string): Promise<string | undefined> {
  try {
    return (await entry(env, host)).getPassword() ?? undefined
  } catch {
    return undefined
  }
}

export async function deleteFromKeyring(env: Env, host: string): Promise<void> {
  try {
    ;(await entry(env, host)).deletePassword()
  } catch {
    // Nothing stored, or no keyring: nothing to forget.
  }
}
