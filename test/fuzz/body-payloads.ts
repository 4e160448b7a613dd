// Hostile request bodies for the body-parser fuzz: JSON, urlencoded forms and multipart forms, each under the
// Content-Types and Content-Encodings clients (and attackers) label them with.
import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { anyValue, encode, hostileString } from './values.js'

/** A body as sent: its bytes, and the Content-Type and Content-Encoding it claims. */
export interface Payload { type?: string; encoding?: string; data: Buffer }

const nest = (depth: number, open: string, close: string, inner: string) => open.repeat(depth) + inner + close.repeat(depth)

// Kept under the 64 KiB an anonymous caller may send, so the answer never races a body still being written.
const JSON_TEXTS = [
  '{', '}', '{"a":}', '{"a":1,}', "{'a':1}", '{"a":1}{"b":2}', '{"a" 1}', '[]', '[1,2]', 'null', '"x"', '1', 'true', ' ', '\ufeff{"title":"bom"}',
  '{"title":"\\ud800"}', '{"title":"\\u0000"}', '{"title":"\\x41"}', '{"a":NaN}', '{"a":Infinity}', '{"a":1e400}', '{"a":-1e400}', '{"title":1e-400}',
  `{"id":${'9'.repeat(400)}}`, `{"iid":-${'9'.repeat(400)}}`, '{"per_page":1e21,"page":-0}', '{"title":0x10}', '{"title":"a","title":"b"}',
  '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"__proto__":null}', '{"title":"x","__proto__":[1]}',
  '{"labels":{"__proto__":"a"}}', '{"a":{"b":{"__proto__":{"c":1}}}}', '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
  '{"description":' + JSON.stringify('x'.repeat(60_000)) + '}',
  nest(25_000, '[', ']', '1'), nest(6_000, '{"a":', '}', '1'), nest(6_000, '{"title":', '}', '"x"'), '{"labels":' + nest(20_000, '[', ']', '"a"') + '}',
]

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16le',
  'APPLICATION/JSON', 'application/vnd.api+json', 'application/json;;;', 'application/json; boundary=x', 'text/json', '']

const KEYS = ['title', 'description', 'name', 'labels', 'content', '__proto__', 'constructor', 'prototype', 'private_token', 'sudo', 'id', 'iid', 'page', 'per_page', '']

const jsonObject = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), hostileString), anyValue, { maxKeys: 6 }).map((o) => JSON.stringify(o))

export const jsonArb: fc.Arbitrary<Payload> = fc.tuple(
  fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...JSON_TEXTS) }, { weight: 1, arbitrary: jsonObject }),
  fc.constantFrom(...JSON_TYPES),
).map(([text, type]) => ({ type: type || undefined, data: Buffer.from(text) }))

const FORM_TEXTS = [
  'a[b][c][d][e][f][g][h][i][j]=1', 'a[', 'a]=1', '[]=1', '[a]=1', 'a[][]=1', 'a[][b]=1&a[][b]=2', 'a[999999999]=1', 'a[-1]=1', 'a[1e9]=x',
  'a[__proto__][x]=1', '__proto__[admin]=true', '__proto__=1', 'constructor[prototype][x]=1', 'a[constructor][prototype]=1', 'hasOwnProperty=1',
  'title=%ZZ', 'title=%', '%E0%A4%A=1', 'title=%C0%AE', '&&&', '=', '==', 'a==b', 'a=b=c', 'title', 'title&title=&title[]=', 'a[b]=1&a=2',
  'a=2&a[b]=1', 'labels[]=a&labels=b', 'a.b.c=1', 'a[b]c=1', ';title=x', 'title=x;y', `title=${'%FF'.repeat(300)}`, 'title=a+b%20c',
  'actions[][action]=create&actions[][file_path]=a&actions[][action]=update', 'actions[][]][x]=1', 'actions[][a][b][c][d][e][f]=1',
  'actions[]=1&actions[][a]=2', `${'a[]='.repeat(1500)}`, Array.from({ length: 6000 }, (_, i) => `p${i}=1`).join('&'),
  Array.from({ length: 1200 }, (_, i) => `a[${i}]=x`).join('&'), `${'['.repeat(3000)}=1`, `a${'[b]'.repeat(2000)}=1`,
]

const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/x-www-form-urlencoded; charset=ISO-8859-1',
  'application/x-www-form-urlencoded; charset=utf-7', 'Application/X-WWW-Form-Urlencoded', '']

const bracketKey = fc.array(fc.constantFrom('[', ']', '[]', 'a', 'title', '__proto__', 'constructor', '0', '%5B', '%5D', '.', '', '&', '='), { maxLength: 12 }).map((ps) => ps.join(''))

const generatedForm = fc.array(fc.tuple(bracketKey, hostileString), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encode(v)}`).join('&'))

export const formArb: fc.Arbitrary<Payload> = fc.tuple(
  fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...FORM_TEXTS) }, { weight: 1, arbitrary: generatedForm }),
  fc.constantFrom(...FORM_TYPES),
).map(([text, type]) => ({ type: type || undefined, data: Buffer.from(text, 'latin1') }))

const NAMES = ['title', 'description', 'file', 'avatar', 'content', '__proto__', 'constructor', 'private_token', 'sudo', 'labels[]', 'a[b][c]', 'x'.repeat(300), 'é']

const FILENAMES = ['a.txt', '../../etc/passwd', 'C:\\evil\\a.txt', '\u0000.txt', '', '.', '..', '/abs/x.png', 'a"b.txt', 'x'.repeat(5000), '\u00ff\u00fe.bin',
  '😀.png', '%2e%2e%2fx', 'a;b=c.txt', ' ', 'CON', 'a.txt\u202egnp.exe']

/** The header block of one part: every way its Content-Disposition and Content-Type can be missing, empty or odd. */
const partHead = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES).map((n) => `Content-Disposition: form-data; name="${n}"`) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...FILENAMES), fc.constantFrom('text/plain', 'image/png', 'application/octet-stream', '', 'x/y; charset=utf-16', 'text/plain; charset=nope'))
    .map(([n, f, t]) => `Content-Disposition: form-data; name="${n}"; filename="${f}"${t ? `\r\nContent-Type: ${t}` : ''}`) },
  { weight: 3, arbitrary: fc.constantFrom(
    'Content-Disposition: form-data', 'Content-Disposition: form-data; name=""', 'Content-Disposition: form-data; filename="a.txt"', 'Content-Disposition: form-data; name=""; filename=""',
    'Content-Disposition: form-data; name=title', 'Content-Disposition: form-data; name=a b', "Content-Disposition: form-data; name*=UTF-8''%E2%82%AC",
    "Content-Disposition: form-data; name=\"file\"; filename*=utf-8''%F0%9F%98%80.txt", "Content-Disposition: form-data; name=\"file\"; filename*=bogus''%FF",
    'Content-Disposition: form-data; name="title"; name="description"', 'Content-Disposition: attachment; name="title"', 'Content-Disposition: ;;;',
    'Content-Disposition: form-data; name="title"\r\nContent-Transfer-Encoding: base64', 'Content-Disposition: form-data; name="title"\r\nContent-Type: text/plain; charset=iso-2022-jp',
    'Content-Disposition: form-data; name="title"\r\n folded: header', 'Content-Disposition form-data name="title"', 'X-Other: 1', '', `Content-Disposition: form-data; name="${'n'.repeat(20_000)}"`,
  ) },
)

const partValue = fc.oneof(hostileString, fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1')), fc.constant('x'.repeat(9000)))

const BOUNDARIES = ['fz', 'a'.repeat(70), 'b'.repeat(200), '"quoted boundary"', "'()+_,-./:=?", '--', 'x y']

/** How the body ends: closed, unterminated, cut inside a part's headers, LF line endings, junk around it. */
const ENDINGS = ['closed', 'unterminated', 'cut-in-headers', 'no-final-crlf', 'lf-only', 'preamble', 'no-first-boundary', 'other-boundary', 'doubled-close'] as const

function assemble(boundary: string, parts: [string, string][], ending: (typeof ENDINGS)[number]): string {
  const b = boundary.replace(/^"|"$/g, '')
  const body = parts.map(([head, value]) => `--${b}\r\n${head}\r\n\r\n${value}\r\n`).join('')
  switch (ending) {
    case 'closed': return `${body}--${b}--\r\n`
    case 'unterminated': return `${body}--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno end`
    case 'cut-in-headers': return `${body}--${b}\r\nContent-Disposition: form-da`
    case 'no-final-crlf': return `${body}--${b}--`
    case 'lf-only': return `${body}--${b}--\r\n`.replace(/\r\n/g, '\n')
    case 'preamble': return `junk before\r\n${body}--${b}--\r\nepilogue`
    case 'no-first-boundary': return `${body}--${b}--\r\n`.slice(b.length + 4)
    case 'other-boundary': return `${body}--${b}--\r\n`.replaceAll(b, 'elsewhere')
    case 'doubled-close': return `${body}--${b}--\r\n--${b}--\r\n`
  }
}

const MULTIPART_TYPES = (b: string) => [`multipart/form-data; boundary=${b}`, `multipart/form-data; boundary=${b}; boundary=other`, 'multipart/form-data',
  'multipart/form-data; boundary=', `multipart/form-data; charset=utf-16; boundary=${b}`, `Multipart/Form-Data; BOUNDARY=${b}`, `multipart/mixed; boundary=${b}`]

const manyParts = (n: number, head: string) => Array.from({ length: n }, (_, i): [string, string] => [head.replace('$i', String(i)), 'v'])

export const multipartArb: fc.Arbitrary<Payload> = fc.tuple(
  fc.constantFrom(...BOUNDARIES),
  fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(partHead, partValue), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.constantFrom(manyParts(1100, 'Content-Disposition: form-data; name="f$i"'), manyParts(25, 'Content-Disposition: form-data; name="f$i"; filename="$i.txt"')) },
  ),
  fc.constantFrom(...ENDINGS),
  fc.nat(6),
).map(([boundary, parts, ending, typeAt]) => {
  const types = MULTIPART_TYPES(boundary)
  return { type: types[typeAt % types.length], data: Buffer.from(assemble(boundary, parts, ending), 'latin1') }
})

const flip = (b: Buffer) => { const c = Buffer.from(b); for (let i = 10; i < c.length; i += 7) c[i] ^= 0x5a; return c }

/** A body as sent: plain, or compressed for real, cut short, corrupted, compressed twice, or labelled with what it is not. */
export const encodingArb: fc.Arbitrary<(p: Payload) => Payload> = fc.oneof(
  { weight: 6, arbitrary: fc.constant((p: Payload) => p) },
  { weight: 4, arbitrary: fc.constantFrom(
    (p: Payload) => ({ ...p, encoding: 'gzip', data: gzipSync(p.data) }),
    (p: Payload) => ({ ...p, encoding: 'deflate', data: deflateSync(p.data) }),
    (p: Payload) => ({ ...p, encoding: 'GZIP', data: gzipSync(p.data) }),
    (p: Payload) => ({ ...p, encoding: 'gzip', data: gzipSync(p.data).subarray(0, 12) }),
    (p: Payload) => { const z = gzipSync(p.data); return { ...p, encoding: 'gzip', data: z.subarray(0, Math.max(1, z.length - 6)) } },
    (p: Payload) => ({ ...p, encoding: 'gzip', data: flip(gzipSync(p.data)) }),
    (p: Payload) => ({ ...p, encoding: 'deflate', data: deflateRawSync(p.data) }),
    (p: Payload) => ({ ...p, encoding: 'deflate', data: gzipSync(p.data) }),
    (p: Payload) => ({ ...p, encoding: 'gzip', data: gzipSync(gzipSync(p.data)) }),
    (p: Payload) => ({ ...p, encoding: 'gzip', data: Buffer.concat([gzipSync(p.data), Buffer.from('trailing junk')]) }),
    (p: Payload) => ({ ...p, encoding: 'gzip' }),
    (p: Payload) => ({ ...p, encoding: 'deflate' }),
  ) },
  { weight: 1, arbitrary: fc.constantFrom('br', 'compress', 'gzip, gzip', 'x-gzip', 'identity', 'gzip;q=1', '').map((encoding) => (p: Payload) => ({ ...p, encoding })) },
)

/** Gzip members back to back (gunzip reads them as one stream): `before`, then MiBs of zeros in a few KiB, then `after`. */
export function gzipBomb(inflatedMiB: number, before = '', after = ''): Buffer {
  const zeros = gzipSync(Buffer.alloc(1024 * 1024))
  return Buffer.concat([gzipSync(before), ...Array.from({ length: inflatedMiB }, () => zeros), gzipSync(after)])
}
