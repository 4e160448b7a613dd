// Request generators for one contract endpoint: path segments, query, body, content type and encoding, auth headers.
import { gzipSync, deflateSync } from 'node:zlib'
import fc from 'fast-check'
import type { z } from 'zod'
import type { Endpoint } from '../../src/contract/define.js'
import { encode, headerSafe, hostileString, plausibleObject, rawSafe, type Mode } from './values.js'
import type { World } from './world.js'

export interface FuzzRequest {
  method: string
  /** The literal request target, as written on the request line. */
  path: string
  headers: Record<string, string>
  body?: Buffer
  /** Declares a body far larger than the one sent: answered before the body, on a connection of its own. */
  lyingLength?: boolean
}

/** Path segments written literally: traversal, bad escapes, encoded slashes, overlong UTF-8, empty. */
export const RAW_SEGMENTS = ['', '.', '..', '%2e%2e', '%2E%2E%2F%2E%2E', '%2F', 'a%2F..%2F..%2Fb', '%ZZ', '%', '%2', '%00', '%C0%AE', '%FF', '%E2%82',
  '%F0%9F%98%80', '..%2F..%2Fetc%2Fpasswd', '.git%2Fconfig', 'a%2F%2Fb', '%2Fabs', 'dir%2F', '--output%3Dx', 'HEAD~99999', 'master..feature', '1;x=1', '1.json', '1%20', '+', '~', '1,2', '99999999999999999999', '-1', '0', '1e3', '0x1', '__proto__', 'constructor']

/** Query keys beyond the schema's: credentials, sudo, pagination, prototype keys, nesting past qs's depth. */
const EXTRA_KEYS = ['private_token', 'access_token', 'sudo', 'page', 'per_page', '__proto__', 'constructor', 'prototype',
  '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c][d][e][f][g]', 'x[]', 'x[][y]', '%ZZ', '']

/** `key=value` pairs the way Rack clients write them: arrays as `key[]=`, hashes as `key[sub]=`. */
export function pairs(key: string, v: unknown, depth = 0): string[] {
  if (Array.isArray(v)) return v.length && depth < 3 ? v.flatMap((x) => pairs(`${key}[]`, x, depth + 1)) : [`${encode(key)}[]=`]
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v)
    return entries.length && depth < 3 ? entries.flatMap(([k, x]) => pairs(`${key}[${k}]`, x, depth + 1)) : [`${encode(key)}[]=`]
  }
  return [`${encode(key)}=${encode(v === null || v === undefined ? '' : String(v))}`]
}

function queryArb(shape: Record<string, z.ZodType>, w: World): fc.Arbitrary<string> {
  const keys = [...Object.keys(shape), ...EXTRA_KEYS]
  const pair = fc.oneof(
    { weight: 8, arbitrary: plausibleObject(shape, w.known, 'hostile').map((o) => Object.entries(o).flatMap(([k, v]) => pairs(k, v))) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...keys), hostileString).map(([k, v]) => [`${encode(k)}=${encode(v)}`]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...keys), hostileString).map(([k, v]) => [`${rawSafe(k)}=${rawSafe(v).replace(/[&#]/g, '')}`]) },
    { weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => [encode(k), `${encode(k)}=1`, `${encode(k)}=2`, `${encode(k)}[]=`, `${encode(k)}[a]=1`]) },
    { weight: 1, arbitrary: fc.constantFrom(['&&'], ['='], ['%ZZ=%ZZ'], ['a=%'], [`private_token=${w.tokens.alice}`], [`sudo=alice`], ['per_page=100000&page=99999999']) },
  )
  return fc.array(pair, { maxLength: 3 }).map((ps) => ps.flat().join('&'))
}

function pathArb(endpoint: Endpoint, w: World, mode: Mode): fc.Arbitrary<string> {
  const parts = endpoint.path.split('/').slice(1).map((part) => {
    if (!part.startsWith(':')) return fc.constant(part)
    const real = w.segments[part.slice(1)] ?? w.segments.id
    if (mode === 'clean') return fc.constantFrom(...real)
    return fc.oneof(
      { weight: 16, arbitrary: fc.constantFrom(...real) },
      { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
      { weight: 1, arbitrary: hostileString.map(encode) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 6 }).map(rawSafe) },
    )
  })
  return fc.tuple(...parts).map((ps) => '/api/v4/' + ps.join('/'))
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'application/x-www-form-urlencoded',
  'text/plain', 'application/xml', 'application/octet-stream', 'multipart/form-data', 'multipart/form-data; boundary=', '', ';;', '*/*',
  'application/json; charset=utf-16le', 'APPLICATION/JSON', 'multipart/mixed; boundary=x']

const MALFORMED_JSON = ['{', '{"a":}', '[]', '[1,2]', 'null', '"x"', '1', 'true', ' ', '\ufeff{}', '{"title":"\\ud800"}',
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}', '['.repeat(3000) + ']'.repeat(3000), '{"a":' + '{"a":'.repeat(500) + '1' + '}'.repeat(501)]

interface Body { type?: string; data: Buffer }

function multipart(fields: string[], opts: { file: boolean; broken: boolean }): Body {
  const boundary = 'fuzzboundary42'
  const parts = fields.map((p) => {
    const [k, v = ''] = p.split('=')
    const dec = (s: string) => { try { return decodeURIComponent(s) } catch { return s } }
    return `--${boundary}\r\nContent-Disposition: form-data; name="${dec(k).replace(/["\r\n]/g, '')}"\r\n\r\n${dec(v)}\r\n`
  })
  if (opts.file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`)
  const text = parts.join('') + (opts.broken ? `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated` : `--${boundary}--\r\n`)
  return { type: `multipart/form-data; boundary=${boundary}`, data: Buffer.from(text) }
}

function bodyArb(shape: Record<string, z.ZodType>, w: World): fc.Arbitrary<Body | undefined> {
  const fields = plausibleObject(shape, w.known, 'hostile').map((o) => Object.entries(o).flatMap(([k, v]) => pairs(k, v)))
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 10, arbitrary: plausibleObject(shape, w.known, 'hostile').map((o) => ({ type: 'application/json', data: Buffer.from(JSON.stringify(o)) })) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((t) => ({ type: 'application/json', data: Buffer.from(t) })) },
    { weight: 3, arbitrary: fields.map((f) => ({ type: 'application/x-www-form-urlencoded', data: Buffer.from(f.join('&')) })) },
    { weight: 2, arbitrary: fc.tuple(fields, fc.boolean(), fc.boolean()).map(([f, file, broken]) => multipart(f, { file, broken })) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), fc.oneof(fields.map((f) => f.join('&')), hostileString))
      .map(([type, t]) => ({ type, data: Buffer.from(t) })) },
  )
}

/** gzip or deflate for real, or a Content-Encoding the bytes do not match. */
function encodingArb(): fc.Arbitrary<(b: Body) => { body: Body; encoding?: string }> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant((body: Body) => ({ body })) },
    { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate').map((enc) => (body: Body) => ({ body: { ...body, data: enc === 'gzip' ? gzipSync(body.data) : deflateSync(body.data) }, encoding: enc })) },
    { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'gzip, deflate', 'x').map((encoding) => (body: Body) => ({ body, encoding })) },
  )
}

function authArb(w: World): fc.Arbitrary<Record<string, string>> {
  const t = w.tokens
  const valid = [t.root, t.alice, t.aliceRead, t.bob]
  const cookie = (c: string) => ({ Cookie: c })
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: fc.constant({ 'PRIVATE-TOKEN': t.root }) },
    { weight: 6, arbitrary: fc.constantFrom(...valid).map((tok) => ({ 'PRIVATE-TOKEN': tok })) },
    { weight: 2, arbitrary: fc.constantFrom(...valid).map((tok) => ({ Authorization: `Bearer ${tok}` })) },
    { weight: 2, arbitrary: fc.oneof(fc.constant({ Cookie: w.session.cookie }), fc.constant({ Cookie: w.session.cookie, 'X-CSRF-Token': w.session.csrf }),
      fc.constant({ Cookie: `${w.session.cookie}; ${w.session.cookie}x`, 'X-CSRF-Token': 'wrong' })) },
    { weight: 2, arbitrary: fc.oneof(
      hostileString.map((s) => ({ 'PRIVATE-TOKEN': headerSafe(s) })),
      hostileString.map((s) => ({ Authorization: `Bearer ${headerSafe(s)}` })),
      fc.constantFrom('Bearer', 'Bearer ', 'Basic cm9vdDpwYXNzd29yZA==', 'Basic %%%', 'Token abc', 'bearer  x').map((a) => ({ Authorization: a })),
      hostileString.map((s) => ({ 'JOB-TOKEN': headerSafe(s) })),
      fc.constantFrom('_service_session=%ZZ', '_service_session=', '_service_session=%E0%A4%A', '=; _service_session', ';;;', 'a=b; _service_session=x',
        '_service_session="quoted"', `_service_session=${'%'.repeat(50)}`).map(cookie),
    ) },
  )
}

const sudoArb = fc.oneof(
  { weight: 14, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.constantFrom('root', 'alice', 'bob', '1', '2', '3', '999999', '0', '-1', '1e3', ' ', 'nobody').map((s) => ({ Sudo: s })) },
  { weight: 1, arbitrary: hostileString.map((s) => ({ Sudo: headerSafe(s) })) },
)

const extraHeadersArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom<Record<string, string>>({ 'X-Forwarded-Proto': 'https' }, { 'X-Forwarded-Proto': 'javascript:,a' }, { Host: 'evil.example:99999' },
    { Accept: 'text/html' }, { 'If-None-Match': '*' }, { Range: 'bytes=0-1' }, { 'Accept-Encoding': 'gzip' }, { Host: '' },
    // Past node's 16 KiB of headers, and framing it must refuse: answered by the parser, before any route.
    { 'X-Padding': 'x'.repeat(17_000) }, { 'Transfer-Encoding': 'chunked', 'Content-Length': '3' }) },
)

/** Every request aimed at one endpoint; `declared` holds the methods the contract serves at the same path. */
export function requestArb(endpoint: Endpoint, w: World, declared: Set<string>): fc.Arbitrary<FuzzRequest> {
  const shape = endpoint.schema.shape as Record<string, z.ZodType>
  const params = new Set(endpoint.path.split('/').filter((p) => p.startsWith(':')).map((p) => p.slice(1)))
  const input = Object.fromEntries(Object.entries(shape).filter(([k]) => !params.has(k)))
  return fc.oneof({ weight: 1, arbitrary: cleanArb(endpoint, w, input) }, { weight: 2, arbitrary: hostileArb(endpoint, w, input, declared) })
}

export const withDescription = (request: FuzzRequest) =>
  // fast-check prints the shrunk counterexample with this: the request as a reader would replay it.
  Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request), enumerable: false })

/** What a well-behaved client sends: real ids, valid credentials, the declared method, every required parameter. */
function cleanArb(endpoint: Endpoint, w: World, input: Record<string, z.ZodType>): fc.Arbitrary<FuzzRequest> {
  const t = w.tokens
  const auth: fc.Arbitrary<Record<string, string>> = fc.constantFrom<Record<string, string>>(
    { 'PRIVATE-TOKEN': t.root }, { 'PRIVATE-TOKEN': t.root }, { 'PRIVATE-TOKEN': t.root }, { 'PRIVATE-TOKEN': t.alice }, { 'PRIVATE-TOKEN': t.alice },
    { 'PRIVATE-TOKEN': t.bob }, { Cookie: w.session.cookie, 'X-CSRF-Token': w.session.csrf },
  )
  const params = plausibleObject(input, w.known, 'clean')
  const hasBody = endpoint.method !== 'GET'
  const body = fc.oneof(
    { weight: 3, arbitrary: params.map((o): Body => ({ type: 'application/json', data: Buffer.from(JSON.stringify(o)) })) },
    { weight: 1, arbitrary: params.map((o): Body => ({ type: 'application/x-www-form-urlencoded', data: Buffer.from(Object.entries(o).flatMap(([k, v]) => pairs(k, v)).join('&')) })) },
    { weight: 1, arbitrary: params.map((o) => multipart(Object.entries(o).flatMap(([k, v]) => pairs(k, v)), { file: false, broken: false })) },
  )
  return fc.record({ path: pathArb(endpoint, w, 'clean'), auth, params, body }).map(({ path, auth, params, body }) => {
    const query = hasBody ? '' : Object.entries(params).flatMap(([k, v]) => pairs(k, v)).join('&')
    const headers: Record<string, string> = hasBody && body.type ? { ...auth, 'Content-Type': body.type } : auth
    return withDescription({ method: endpoint.method, path: query ? `${path}?${query}` : path, headers, body: hasBody ? body.data : undefined })
  })
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** Everything a hostile client can vary: malformed segments and queries, odd bodies and encodings, bad credentials, other methods. */
function hostileArb(endpoint: Endpoint, w: World, input: Record<string, z.ZodType>, declared: Set<string>): fc.Arbitrary<FuzzRequest> {
  const others = METHODS.filter((m) => !declared.has(m))
  const method = fc.oneof(
    { weight: 20, arbitrary: fc.constant(endpoint.method) },
    { weight: 1, arbitrary: fc.constantFrom(...(endpoint.method === 'GET' ? ['HEAD', ...others] : others.length ? others : [endpoint.method])) },
  )
  return fc.record({
    method, path: pathArb(endpoint, w, 'hostile'), query: queryArb(input, w), body: bodyArb(input, w), encode: encodingArb(),
    auth: authArb(w), sudo: sudoArb, extra: extraHeadersArb, lyingLength: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  }).map(({ method, path, query, body, encode: enc, auth, sudo, extra, lyingLength }) => {
    const headers: Record<string, string> = { ...auth, ...sudo, ...extra }
    const withBody = body && method !== 'GET' && method !== 'HEAD' ? enc(body) : undefined
    if (withBody?.body.type !== undefined) headers['Content-Type'] = withBody.body.type
    if (withBody?.encoding) headers['Content-Encoding'] = withBody.encoding
    return withDescription({ method, path: query ? `${path}?${query}` : path, headers, body: withBody?.body.data, lyingLength: lyingLength && withBody !== undefined })
  })
}

/** The method, literal path, headers and body of a request, the body as latin-1 text. */
export function describeRequest(r: FuzzRequest): string {
  const body = r.body ? ` body(${r.body.length} B${r.lyingLength ? ', Content-Length 1e9' : ''}): ${JSON.stringify(r.body.toString('latin1').slice(0, 300))}` : ''
  const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.length > 200 ? `${v.slice(0, 20)}…(${v.length} characters)` : v]))
  const path = r.path.length > 1000 ? `${r.path.slice(0, 1000)}…(${r.path.length} characters)` : r.path
  return `${r.method} ${path} headers ${JSON.stringify(headers)}${body}`
}
