// Request generators for git smart HTTP: repository paths, services, Basic credentials of every kind, and pkt-line
// bodies (well-formed, garbage, truncated, lying about their length or their compression).
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { ROOT_PASSWORD } from '../helpers/server.js'
import { RAW_SEGMENTS, withDescription, type FuzzRequest } from './requests.js'
import { encode, headerSafe, hostileString, rawSafe } from './values.js'
import { PASSWORD, type World } from './world.js'

const ZERO = '0'.repeat(40)

/** One pkt-line: four hex digits of length (its own four included), then the payload. */
export const pkt = (payload: string | Buffer) => {
  const b = Buffer.from(payload)
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b])
}
const cat = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => Buffer.from(p)))

const REPOS = ['fuzz-group/public', 'fuzz-group/public.git', 'FUZZ-GROUP/Public.GIT', 'alice/secret.git', 'alice/secret', 'nobody/nothing.git',
  'fuzz-group', 'fuzz-group/public.git.git', 'fuzz-group/public.git/info', '../fuzz-group/public.git', 'fuzz-group/../alice/secret.git',
  'fuzz-group%2Fpublic.git', 'fuzz-group/public%2Egit', '%2e%2e/%2e%2e/etc', 'fuzz-group/public.git%00', 'a'.repeat(3000), '-', '--upload-pack=touch',
  '.git', '.', '1', '1.git', 'api/v4/projects', 'fuzz-group//public.git', 'fuzz-group/public.git/', '~alice/secret.git']

const repoArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...REPOS) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...RAW_SEGMENTS), { minLength: 1, maxLength: 3 }).map((s) => s.join('/') + '.git') },
  { weight: 1, arbitrary: hostileString.map((s) => `fuzz-group/${encode(s)}.git`) },
)

const SERVICES = ['git-upload-pack', 'git-receive-pack', 'git-upload-archive', '', 'git-upload-pack&service=git-receive-pack', '--help',
  'git-upload-pack%00', '%ZZ', 'GIT-UPLOAD-PACK', 'git-upload-pack/../git-receive-pack']

const infoRefsQuery = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SERVICES).map((s) => `?service=${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '?', '?service', '?service[]=git-upload-pack', '?Service=git-upload-pack', '?service=git-upload-pack&x=%ZZ') },
  { weight: 1, arbitrary: hostileString.map((s) => `?service=${encode(s)}`) },
)

const b64 = (s: string) => Buffer.from(s, 'latin1').toString('base64')
const basic = (user: string, secret: string) => ({ Authorization: `Basic ${b64(`${user}:${secret}`)}` })

/** A token under any username (oauth2 included), an account password (slow on purpose: hashed), or something malformed. */
function gitAuthArb(w: World): fc.Arbitrary<Record<string, string>> {
  const tokens = Object.values(w.tokens)
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom('alice', 'root', 'oauth2', 'bob', 'x', ''), fc.constantFrom(...tokens)).map(([u, t]) => basic(u, t)) },
    { weight: 1, arbitrary: fc.constantFrom(['alice', PASSWORD], ['root', ROOT_PASSWORD], ['alice', 'wrong'], ['alice@example.com', PASSWORD], ['nobody', 'x'])
      .map(([u, p]) => basic(u, p)) },
    { weight: 1, arbitrary: fc.constantFrom(...tokens).map((t) => ({ 'PRIVATE-TOKEN': t })) },
    { weight: 3, arbitrary: fc.constantFrom<Record<string, string>>(
      { Authorization: 'Basic %%%' }, { Authorization: 'Basic ====' }, { Authorization: `Basic ${b64('nocolon')}` }, { Authorization: `Basic ${b64(':')}` },
      { Authorization: `Basic ${b64('alice:')}` }, { Authorization: `Basic ${b64(':' + w.tokens.alice)}` }, { Authorization: 'Basic' }, { Authorization: 'Basic ' },
      { Authorization: `basic   ${b64('root:' + w.tokens.root)}  ` }, { Authorization: `Basic ${b64('a:b')} ${b64('c:d')}` }, { Authorization: `Bearer ${w.tokens.root}` },
      { Authorization: `Basic ${'A'.repeat(12_000)}` }, { Authorization: `Basic ${b64('alice:' + 'x'.repeat(8_000))}` }, { Authorization: `Basic ${b64('\0:\0')}` },
      { Authorization: `Basic ${b64('alice:\u00ff\u00fe')}` }, { Authorization: `Basic ${b64(`${w.tokens.root}:`)}` }, { 'PRIVATE-TOKEN': ' ' },
      { Authorization: `Basic ${b64('root:' + w.tokens.root)}`, 'PRIVATE-TOKEN': 'wrong' }) },
    { weight: 1, arbitrary: hostileString.map((s) => ({ Authorization: `Basic ${b64(headerSafe(s))}` })) },
    { weight: 1, arbitrary: hostileString.map((s) => ({ Authorization: `Basic ${headerSafe(s)}` })) },
  )
}

const REFS = ['refs/heads/fuzz-new', 'refs/heads/feature', 'refs/heads/--upload-pack=x', '--delete', '-f', 'refs/heads/../../config', '../../../etc/passwd',
  'refs/heads/a..b', 'HEAD', 'refs/tags/v1.0', 'refs/tags/fuzz-tag', 'refs/heads/', '', 'refs/heads/x y', 'refs/heads/x.lock', 'refs/heads/@{-1}',
  'refs/heads/é', 'refs/heads/' + 'x'.repeat(2000), 'refs/heads/a\\b', 'refs/meta/config', 'refs/merge-requests/1/head', 'refs/heads/~1^2:x']

/** A pushed command's sides: nothing, the world's commit, or an id that is not one. */
const oidArb = (w: World) => fc.constantFrom(ZERO, w.segments.sha[0], 'f'.repeat(40), 'zz', '1234', '', 'g'.repeat(40), '0'.repeat(64))

const CAPS = ['report-status side-band-64k', 'report-status-v2 atomic push-options', 'object-format=sha256', '', 'agent=git/2.39']

function receiveBodyArb(w: World): fc.Arbitrary<Buffer> {
  const command = fc.tuple(oidArb(w), oidArb(w), fc.constantFrom(...REFS)).map(([a, b, ref]) => `${a} ${b} ${ref}`)
  return fc.tuple(fc.array(command, { minLength: 1, maxLength: 3 }), fc.constantFrom(...CAPS), fc.constantFrom('', 'PACK\0\0\0\x02\0\0\0\0', 'garbage'))
    .map(([cmds, caps, tail]) => cat(...cmds.map((c, i) => pkt(i === 0 ? `${c}\0${caps}\n` : `${c}\n`)), '0000', tail))
}

function uploadBodyArb(w: World): fc.Arbitrary<Buffer> {
  const want = fc.constantFrom(w.segments.sha[0], ZERO, 'f'.repeat(40), 'master', '')
  return fc.oneof(
    want.map((id) => cat(pkt(`want ${id} multi_ack_detailed side-band-64k ofs-delta\n`), '0000', pkt('done\n'))),
    want.map((id) => cat(pkt(`want ${id}\n`), pkt(`want ${id}\n`), pkt('deepen 99999999\n'), pkt('filter blob:none\n'), '0000', pkt(`have ${id}\n`), pkt('done\n'))),
    fc.constantFrom('ls-refs', 'fetch', 'object-info', 'bundle-uri', 'nonsense', '').chain((cmd) => want.map((id) =>
      cat(pkt(`command=${cmd}\n`), pkt('object-format=sha1\n'), '0001', pkt('peel\n'), pkt('ref-prefix refs/\n'), pkt(`want ${id}\n`), pkt('done\n'), '0000'))),
  )
}

/** Pkt-lines that are not: bad hex, lengths 1 to 3, a length far past the body, a flush flood, bytes at random. */
const GARBAGE = ['zzzz', '0001', '0002', '0003', '0004', '000', 'ffff' + 'x'.repeat(10), 'fff0want', '0000'.repeat(2000), '00', '\0\0\0\0', 'PACK', '0006a\n0000',
  '0032want ' + 'f'.repeat(40), '-001', '+004', ' 004', '0x10abcdefghijkl']

function gitBodyArb(w: World): fc.Arbitrary<Buffer | undefined> {
  const wellFormed = fc.oneof(receiveBodyArb(w), uploadBodyArb(w))
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: wellFormed },
    { weight: 2, arbitrary: fc.tuple(wellFormed, fc.nat()).map(([b, n]) => b.subarray(0, n % Math.max(1, b.length))) },
    { weight: 2, arbitrary: fc.constantFrom(...GARBAGE).map((g) => Buffer.from(g, 'latin1')) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)) },
  )
}

/** A body sent as is, gzipped for real, gzipped and cut short, or labelled with a Content-Encoding it does not have. */
const encodingArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant((b: Buffer) => ({ body: b, encoding: undefined as string | undefined })) },
  { weight: 2, arbitrary: fc.constantFrom('gzip', 'x-gzip').map((e) => (b: Buffer) => ({ body: gzipSync(b), encoding: e })) },
  { weight: 1, arbitrary: fc.constant((b: Buffer) => ({ body: gzipSync(b).subarray(0, 12), encoding: 'gzip' })) },
  { weight: 2, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'gzip, gzip', '').map((e) => (b: Buffer) => ({ body: b, encoding: e })) },
)

const GIT_TYPES = ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request', 'application/json', 'text/plain', '']

const headerArb = fc.record({
  type: fc.option(fc.constantFrom(...GIT_TYPES), { nil: undefined }),
  protocol: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.constantFrom('version=2', 'version=1', 'version=0', 'version=2:object-format=sha256', 'version=99') },
    { weight: 1, arbitrary: hostileString.map(headerSafe) }),
})

const action: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<[string, string]>(['GET', 'info/refs']) },
  { weight: 3, arbitrary: fc.constant<[string, string]>(['POST', 'git-upload-pack']) },
  { weight: 3, arbitrary: fc.constant<[string, string]>(['POST', 'git-receive-pack']) },
  { weight: 1, arbitrary: fc.constantFrom<[string, string]>(['HEAD', 'info/refs'], ['POST', 'info/refs'], ['GET', 'git-upload-pack'], ['PUT', 'git-receive-pack'], ['POST', 'git-upload-archive'],
    ['DELETE', 'info/refs'], ['POST', 'INFO/REFS'], ['GET', 'HEAD'], ['GET', 'objects/info/packs']) },
)

/** What git itself sends: a real project, a working token, the right method, content type and body for the service. */
function cleanGitArb(w: World): fc.Arbitrary<FuzzRequest> {
  const service = fc.constantFrom('git-upload-pack', 'git-receive-pack')
  return fc.record({
    repo: fc.constantFrom('fuzz-group/public.git', 'fuzz-group/public', 'alice/secret.git'),
    user: fc.constantFrom('alice', 'root', 'oauth2'), token: fc.constantFrom(w.tokens.alice, w.tokens.root, w.tokens.aliceRead),
    service, refs: fc.boolean(), upload: uploadBodyArb(w), receive: receiveBodyArb(w), gzip: fc.boolean(), v2: fc.boolean(),
  }).map(({ repo, user, token, service, refs, upload, receive, gzip, v2 }) => {
    const headers: Record<string, string> = { ...basic(user, token), ...(v2 ? { 'Git-Protocol': 'version=2' } : {}) }
    if (refs) return withDescription({ method: 'GET', path: `/${repo}/info/refs?service=${service}`, headers })
    const body = service === 'git-upload-pack' ? upload : receive
    headers['Content-Type'] = `application/x-${service}-request`
    if (gzip) headers['Content-Encoding'] = 'gzip'
    return withDescription({ method: 'POST', path: `/${repo}/${service}`, headers, body: gzip ? gzipSync(body) : body })
  })
}

/** Any smart HTTP request: the repository, the service, the credentials, and a body a client or an attacker would send. */
export function gitArb(w: World): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 1, arbitrary: cleanGitArb(w) }, { weight: 2, arbitrary: hostileGitArb(w) })
}

function hostileGitArb(w: World): fc.Arbitrary<FuzzRequest> {
  return fc.record({ repo: repoArb, action, query: infoRefsQuery, auth: gitAuthArb(w), body: gitBodyArb(w), encode: encodingArb, headers: headerArb })
    .map(({ repo, action: [method, act], query, auth, body, encode: enc, headers: h }) => {
      const headers: Record<string, string> = { ...auth }
      if (h.type !== undefined) headers['Content-Type'] = h.type
      if (h.protocol !== undefined) headers['Git-Protocol'] = h.protocol
      const sent = body && method !== 'GET' && method !== 'HEAD' ? enc(body) : undefined
      if (sent?.encoding !== undefined) headers['Content-Encoding'] = sent.encoding
      const path = `/${rawSafe(repo)}/${act}${act === 'info/refs' ? query : ''}`
      return withDescription({ method, path, headers, body: sent?.body })
    })
}

/** Paths answered by git smart HTTP (plain text from git and from us), not by the API's JSON routes. */
export const isGitPath = (path: string) => /\/(info\/refs|git-upload-pack|git-receive-pack)(\?|$)/i.test(path) && !path.startsWith('/api/')
