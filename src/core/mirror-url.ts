// A push mirror's URL shown and its errors told without the credentials it carries (GitLab's SafeUrl and
// Gitlab::UrlSanitizer): for the presenter, the background updates and their logs alike.
export interface MirrorCredentials { user: string; password: string }

const MASK = '*****'

/** The credentials a mirror keeps as JSON (sealed at rest), or null. */
export const parseMirrorCredentials = (json: string | null): MirrorCredentials | null => (json ? JSON.parse(json) as MirrorCredentials : null)

/** `RemoteMirror#safe_url`: user and password as `*****`; the conventional `git` user stays. */
export function maskedMirrorUrl(url: string, creds: MirrorCredentials | null): string {
  if (!creds) return url
  const u = new URL(url)
  const user = creds.user && creds.user !== 'git' ? MASK : encodeURIComponent(creds.user)
  const userinfo = creds.password ? `${user}:${MASK}` : user
  return `${u.protocol}//${userinfo}@${u.host}${u.pathname}${u.search}${u.hash}`
}

/**
 * `Gitlab::UrlSanitizer.sanitize`: a text (git's error) with the mirror's password and user masked, as given and
 * percent-encoded, and the user information of any URL in it too.
 */
export function scrubMirrorCredentials(text: string, creds: MirrorCredentials | null): string {
  let out = text
  for (const secret of [creds?.password, creds?.user]) {
    if (!secret) continue
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(MASK)
  }
  return out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, `$1${MASK}:${MASK}@`)
}
