// Where the body-parser fuzz sends its bodies and headers: a sample of API routes, uploads, web forms, OAuth and git
// smart HTTP, under every credential a request can carry, and every header the server reads with hostile values.
import fc from 'fast-check'
import { withDescription, type FuzzRequest } from './requests.js'
import type { Payload } from './body-payloads.js'
import { headerSafe, hostileString } from './values.js'
import type { World } from './world.js'

const PUBLIC = 'fuzz-group/public'
const e = encodeURIComponent

/** Routes that read a body, with the way each is meant to be called. */
function bodyRoutes(w: World): { method: string; path: string }[] {
  const [iid] = w.segments.issue_iid
  const api = `/api/v4/projects/${e(PUBLIC)}`
  return [
    { method: 'PUT', path: api },
    { method: 'POST', path: `${api}/issues` },
    { method: 'PUT', path: `${api}/issues/${iid}` },
    { method: 'POST', path: `${api}/uploads` },
    { method: 'POST', path: `${api}/wikis/attachments` },
    { method: 'PUT', path: '/api/v4/user/avatar' },
    { method: 'POST', path: '/api/v4/markdown' },
    { method: 'POST', path: `${api}/repository/commits` },
    { method: 'PATCH', path: `/api/v4/jobs/${w.segments.job_id[0]}/trace` },
    { method: 'POST', path: '/oauth/token' },
    { method: 'POST', path: '/users/sign_in' },
    { method: 'POST', path: `/${PUBLIC}/-/issues/${iid}/notes` },
    { method: 'POST', path: `/${PUBLIC}.git/git-upload-pack` },
    { method: 'POST', path: `/${PUBLIC}.git/git-receive-pack` },
  ]
}

/** Credentials as clients send them, good and bad: a body's route is read as each caller would reach it. */
export function credentialsArb(w: World): fc.Arbitrary<Record<string, string>> {
  const t = w.tokens
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
  return fc.constantFrom<Record<string, string>>(
    {}, { 'PRIVATE-TOKEN': t.root }, { 'PRIVATE-TOKEN': t.root }, { 'PRIVATE-TOKEN': t.alice }, { 'PRIVATE-TOKEN': t.aliceRead },
    { Authorization: `Bearer ${t.bob}` }, { Authorization: basic('oauth2', t.root) }, { Cookie: w.session.cookie, 'X-CSRF-Token': w.session.csrf },
    { Cookie: w.session.cookie }, { 'PRIVATE-TOKEN': 'glpat-not-a-token' }, { 'JOB-TOKEN': 'glcbt-nope' },
  )
}

/** One body sent to one route under one set of credentials. */
export function bodyRequestArb(w: World, payload: fc.Arbitrary<Payload>): fc.Arbitrary<FuzzRequest> {
  return fc.tuple(fc.constantFrom(...bodyRoutes(w)), payload, credentialsArb(w)).map(([route, p, auth]) => {
    const headers: Record<string, string> = { ...auth }
    if (p.type !== undefined) headers['Content-Type'] = p.type
    if (p.encoding !== undefined) headers['Content-Encoding'] = p.encoding
    return withDescription({ method: route.method, path: route.path, headers, body: p.data })
  })
}

const RANGES = ['bytes=0-1', 'bytes=-1', 'bytes=5-2', 'bytes=0-0,1-1,2-2', 'bytes=99999999999999999999-', 'bytes=-0', 'items=0-1', 'bytes=a-b', 'bytes=0-1 ',
  `bytes=${'0-0,'.repeat(1500)}0-0`, 'bytes=', 'bytes=-', 'bytes=1-', 'bytes=-99999999999999999999', 'bytes= 0 - 1', 'bytes=0-1, -1', 'BYTES=0-1']

const CONTENT_RANGES = ['0-5', 'bytes 0-5/*', '-1-5', '99999999999999999999-1', 'a-b', '5-0', '0-', '-', '', '0-99999999999999999999', '1-1', '0 - 5', '0-5-6']

const ETAGS = ['*', 'W/"x"', `"${'a'.repeat(8000)}"`, ',,,', '"unterminated', 'W/', '""', '"a", "b", *']

const FORWARDED = ['https', 'http', 'https, http', 'javascript:', 'HTTPS', '', ' ', 'https\t']

const PROTOCOLS = ['version=2', 'version=1', 'version=0', 'version=999', 'version=2:object-format=sha256', 'version=', '=', 'version=2\tversion=1', ':::']

const SUDOS = ['root', 'alice', '1', '0', '-1', '999999', 'nobody', ' ', '1e3', 'ALICE', '%61lice']

const headerValue = (fixed: readonly string[]) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...fixed) }, { weight: 1, arbitrary: hostileString.map(headerSafe) })

/** Each header the server reads, paired with routes that read it, with values to break its parser. */
function headerCases(w: World): fc.Arbitrary<{ method: string; path: string; headers: Record<string, string> }> {
  const api = `/api/v4/projects/${e(PUBLIC)}`
  const t = w.tokens
  const job = w.segments.job_id[0]
  const reads = ['/api/v4/user', '/api/v4/projects', api, `${api}/issues`, `/${PUBLIC}`, `/${PUBLIC}/-/issues`, `/${PUBLIC}.git/info/refs?service=git-upload-pack`]
  const authed = (h: Record<string, string>) => ({ 'PRIVATE-TOKEN': t.root, ...h })
  const get = (paths: string[], headers: fc.Arbitrary<Record<string, string>>) =>
    fc.tuple(fc.constantFrom(...paths), headers).map(([path, h]) => ({ method: 'GET', path, headers: h }))
  return fc.oneof(
    get([`${api}/repository/files/README.md/raw?ref=${w.segments.branch[0]}`, `${api}/jobs/${job}/trace`, `${api}/repository/archive.zip`],
      headerValue(RANGES).map((range) => authed({ Range: range }))),
    get([api, `${api}/repository/files/README.md/raw?ref=${w.segments.branch[0]}`, '/api/v4/projects'], headerValue(ETAGS).map((tag) => authed({ 'If-None-Match': tag }))),
    get([`${api}/repository/archive.tar.gz`, api], headerValue(['gzip', 'br', 'deflate;q=0', '*', 'identity;q=0, *;q=0', '']).map((v) => authed({ 'Accept-Encoding': v }))),
    get(reads, fc.record({ p: headerValue(FORWARDED), h: headerValue(['evil.example', 'evil.example:99999', '[::1]', '']), f: headerValue(['1.2.3.4', 'unknown', '::1, 10.0.0.1']) })
      .map(({ p, h, f }) => authed({ 'X-Forwarded-Proto': p, 'X-Forwarded-Host': h, 'X-Forwarded-For': f, 'X-Forwarded-Port': '99999' }))),
    get([`/${PUBLIC}.git/info/refs?service=git-upload-pack`, `/${PUBLIC}.git/info/refs?service=git-receive-pack`], headerValue(PROTOCOLS).map((v) => ({ 'Git-Protocol': v }))),
    get(reads, headerValue([t.root, t.alice, `${t.root} `, '', 'x'.repeat(5000), `${t.root}\t`]).map((v) => ({ 'PRIVATE-TOKEN': v }))),
    get(reads, headerValue([`Bearer ${t.alice}`, 'Bearer', 'Bearer ', 'Basic', 'Basic ====', 'Basic %%%', `Basic ${Buffer.from(':').toString('base64')}`,
      `Basic ${Buffer.from(`alice:${t.alice}:extra`).toString('base64')}`, `Basic ${Buffer.from('\u00ff\u0000:\u0000').toString('base64')}`, 'Negotiate abc', `bearer  ${t.root}`])
      .map((v) => ({ Authorization: v }))),
    get(reads, headerValue(['glcbt-x', '', 'x'.repeat(5000)]).map((v) => ({ 'JOB-TOKEN': v }))),
    get(reads, headerValue([w.session.cookie, `${w.session.cookie}; ${w.session.cookie}`, '_service_session=%ZZ', `_service_session=${'%'.repeat(60)}`,
      `${'a=b; '.repeat(500)}${w.session.cookie}`, '=;=;=', '_service_session', '_service_session="x"']).map((v) => ({ Cookie: v, 'X-CSRF-Token': w.session.csrf }))),
    get(reads, headerValue(SUDOS).map((v) => authed({ Sudo: v }))),
    get([`/${PUBLIC}`, `/${PUBLIC}/-/issues`], fc.record({ a: headerValue(['text/html', '*/*', 'application/json', 'text/html;q=0']), o: headerValue(['null', 'http://evil.example', '']), s: headerValue(['cross-site', 'same-origin', 'none']) })
      .map(({ a, o, s }) => ({ Accept: a, Origin: o, 'Sec-Fetch-Site': s, Cookie: w.session.cookie }))),
    fc.tuple(headerValue(CONTENT_RANGES), headerValue(['glcbt-x', 'x'])).map(([range, token]) => ({ method: 'PATCH', path: `/api/v4/jobs/${job}/trace`, headers: { 'Content-Range': range, 'JOB-TOKEN': token } })),
    headerValue(['application/json; charset=', 'multipart/form-data; boundary="', 'multipart/form-data; boundary=""', 'application/x-www-form-urlencoded; charset=utf-7',
      'text/plain; charset=x; charset=y', 'application/json; q="unterminated', ';', 'multipart/form-data; boundary=' + 'z'.repeat(5000)])
      .map((type) => ({ method: 'POST', path: `${api}/issues`, headers: authed({ 'Content-Type': type }) })),
  )
}

/** A header case as a request: bodies go with the PATCH and POST cases so their parsers read one. */
export const headerRequestArb = (w: World): fc.Arbitrary<FuzzRequest> => headerCases(w).map((c) =>
  withDescription({ ...c, body: c.method === 'GET' ? undefined : Buffer.from(c.method === 'PATCH' ? 'log line\n' : 'title=from+a+header+case') }))
