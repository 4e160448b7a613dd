// Request generators for the routes outside the contract: OAuth token and revoke, web sign-in and sign-out, and paths
// and methods nothing serves. The credential routes reuse the contract generators through a declaration of their own.
import fc from 'fast-check'
import { z } from 'zod'
import type { Endpoint } from '../../src/contract/define.js'
import { ROOT_PASSWORD } from '../helpers/server.js'
import { RAW_SEGMENTS, requestArb, withDescription, type FuzzRequest } from './requests.js'
import { encode, headerSafe, hostileString, rawSafe } from './values.js'
import { PASSWORD, type World } from './world.js'

/** Credentials made for these routes alone, so that using one up (a refresh, a sign-out) leaves the world whole. */
export interface Spare { refreshTokens: string[]; accessTokens: string[]; sessions: string[] }

const LOGINS = ['alice', 'bob', 'root', 'alice@example.com', 'ALICE', 'nobody', ''] as const
const PASSWORDS = [PASSWORD, ROOT_PASSWORD, 'wrong', ''] as const

/** A route described the way the contract describes endpoints, so its params, bodies and headers come from requestArb. */
function declared(method: 'POST' | 'DELETE', path: string, shape: z.ZodRawShape): Endpoint {
  return { method, path, summary: path, responses: {}, auth: 'none', scope: 'read', paginated: false, schema: z.object(shape) } as unknown as Endpoint
}

/** requestArb writes `/api/v4/<path>`; these routes live at the top level. */
function outsideApi(e: Endpoint, w: World, adjust: (r: FuzzRequest) => FuzzRequest = (r) => r): fc.Arbitrary<FuzzRequest> {
  return requestArb(e, w, new Set([e.method])).map((r) => withDescription(adjust({ ...r, path: r.path.slice('/api/v4'.length) })))
}

export function oauthTokenArb(w: World, spare: Spare) {
  return outsideApi(declared('POST', '/oauth/token', {
    grant_type: z.enum(['password', 'refresh_token', 'authorization_code', 'client_credentials', 'PASSWORD']),
    username: z.enum(LOGINS),
    password: z.enum(PASSWORDS),
    refresh_token: z.enum([w.tokens.alice, ...spare.refreshTokens, ...spare.accessTokens]),
    scope: z.enum(['api', 'read_api read_user', 'api+read_repository', 'sudo', 'admin_mode', 'openid profile', 'nonsense', '', ' ']).optional(),
    client_id: z.string().optional(),
  }), w)
}

export function oauthRevokeArb(w: World, spare: Spare) {
  // A personal access token among them: revoke is for OAuth tokens only, so the world must survive it.
  const token = z.enum([w.tokens.bob, ...spare.accessTokens, ...spare.refreshTokens])
  return outsideApi(declared('POST', '/oauth/revoke', { token, token_type_hint: z.enum(['access_token', 'refresh_token']).optional() }), w)
}

export function signInArb(w: World) {
  const login = z.enum(LOGINS)
  const password = z.enum(PASSWORDS)
  return outsideApi(declared('POST', '/users/sign_in', {
    user: z.object({ login, password, remember_me: z.enum(['0', '1']).optional() }),
    login: login.optional(),
    password: password.optional(),
    authenticity_token: z.string().optional(),
  }), w)
}

/** Sign-out with the world's own session would end it: spare sessions stand in for it. */
export function signOutArb(w: World, spare: Spare) {
  const [own] = w.session.cookie.split('=')
  return fc.tuple(outsideApi(declared('DELETE', '/users/sign_out', {}), w), fc.constantFrom(...spare.sessions)).map(([r, session]) => {
    const cookie = r.headers.Cookie?.replaceAll(w.session.cookie, `${own}=${session}`)
    return withDescription(cookie === undefined ? { ...r } : { ...r, headers: { ...r.headers, Cookie: cookie } })
  })
}

/** Paths near ours and far from them: other API versions, doubled slashes, traversal, web pages GitLab has and we do not. */
const NEAR_PATHS = ['/', '/api', '/api/', '/api/v4', '/api/v4/', '/api/v3/projects', '/api/v5/projects', '//api/v4/projects', '/API/V4/PROJECTS',
  '/api/v4/projects/../users', '/api/v4/%2e%2e/users', '/api/v4/projects/', '/api/v4//projects', '/api/v4/projects;x', '/oauth', '/oauth/token/x',
  '/oauth/authorize', '/oauth/token/info', '/users', '/users/sign_in/', '/users/sign_in.json', '/users/sign_up', '/users/sign_out/x', '/-/health',
  '/-/readiness', '/favicon.ico', '/robots.txt', '*', '/..', '/%', '/%ZZ', '/%00', '/?', '/index.html', '/.git/config', '/fuzz-group',
  '/fuzz-group/public', '/fuzz-group/public/-/tree/master', '/fuzz-group/public.git', '/fuzz-group/public.git/HEAD',
  '/fuzz-group/public.git/objects/info/packs', '/fuzz-group/public.git/info/refs/x', '/fuzz-group/public/info', '/api/v4/info/refs',
  '/api/v4/projects/1/git-upload-pack', '/' + 'a/'.repeat(2000), '/' + 'x'.repeat(8000)]

/** Every method node's parser knows, and some it does not (those the parser refuses, before any route). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'PURGE', 'QUERY',
  'LINK', 'REPORT', 'MERGE', 'NOTIFY', 'BREW', 'FOO', 'get', 'M-SEARCH']

const topPath = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NEAR_PATHS) },
  { weight: 2, arbitrary: fc.array(fc.oneof(fc.constantFrom(...RAW_SEGMENTS), hostileString.map(encode), fc.string({ maxLength: 6 }).map(rawSafe)), { minLength: 1, maxLength: 5 })
    .map((s) => '/' + s.join('/')) },
)

const topQuery = fc.oneof(fc.constant(''), fc.constantFrom('?', '?a=1', '?%ZZ', '?service=git-upload-pack', '?private_token=x', '?a[b][c][d][e][f]=1'),
  hostileString.map((s) => `?q=${encode(s)}`))

/** Headers a hostile caller adds anywhere: credentials of every kind, framing and negotiation headers. */
function oddHeaders(w: World): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({}) },
    { weight: 2, arbitrary: fc.constantFrom<Record<string, string>>({ 'PRIVATE-TOKEN': w.tokens.root }, { Cookie: w.session.cookie }, { Authorization: `Bearer ${w.tokens.alice}` },
      { Authorization: 'Basic %%%' }, { Cookie: '_service_session=%ZZ' }, { 'X-Forwarded-Proto': 'javascript:' }, { Host: '' }, { Accept: 'text/html' },
      { Expect: '100-continue' }, { Upgrade: 'h2c', Connection: 'Upgrade, HTTP2-Settings' }, { 'Content-Type': 'multipart/form-data' },
      { 'Transfer-Encoding': 'gzip' }, { 'Content-Encoding': 'gzip' }, { Range: 'bytes=99999999-' }, { 'Accept-Encoding': '*;q=0' }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('PRIVATE-TOKEN', 'Authorization', 'Cookie', 'Sudo', 'Content-Type', 'Accept', 'Git-Protocol', 'X-CSRF-Token'), hostileString)
      .map(([k, v]) => ({ [k]: headerSafe(v) })) },
  )
}

/** Any method on any path: routed to a 404 or 405, or refused by the parser, with GitLab's JSON body either way. */
export function topLevelArb(w: World): fc.Arbitrary<FuzzRequest> {
  return fc.record({ method: fc.constantFrom(...METHODS), path: topPath, query: topQuery, headers: oddHeaders(w), body: fc.option(hostileString, { nil: undefined }) })
    .map(({ method, path, query, headers, body }) => withDescription({
      method, path: path + query, headers, body: body !== undefined && method !== 'GET' && method !== 'HEAD' ? Buffer.from(body) : undefined,
    }))
}
