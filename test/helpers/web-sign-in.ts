// Signing in as a browser does: GET the form (its pre-session cookie and authenticity_token), then POST it back.
import { request, type Reply } from './api.js'
import type { TestServer } from './server.js'

/** The sign-in form's token and the cookie that holds it, as a browser gets them. */
export async function signInForm(server: Pick<TestServer, 'url'>): Promise<{ cookie: string; token: string }> {
  const res = await request(server, 'GET', '/users/sign_in')
  const token = /name="authenticity_token" value="([^"]+)"/.exec(res.text)?.[1]
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]
  if (!token || !cookie) throw new Error(`no sign-in form: ${res.status}`)
  return { cookie, token }
}

/** POSTs the sign-in form with `fields` (a form, or JSON with `json: true`) and the form's token. */
export async function postSignIn(
  server: Pick<TestServer, 'url'>, fields: Record<string, unknown>, opts: { headers?: Record<string, string>; json?: boolean } = {},
): Promise<Reply> {
  const { cookie, token } = await signInForm(server)
  const headers = { ...opts.headers, Cookie: [opts.headers?.Cookie, cookie].filter(Boolean).join('; ') }
  const body = { ...fields, authenticity_token: token }
  return opts.json
    ? request(server, 'POST', '/users/sign_in', { json: body, headers })
    : request(server, 'POST', '/users/sign_in', { form: body as Record<string, string>, headers })
}
