// The body-parser fuzz: hostile JSON, forms and multipart bodies, plain and compressed, chunked and with lying lengths,
// and hostile values of every header the server reads, sent to a sample of API routes, uploads, web forms, OAuth and
// git smart HTTP of one real server. No answer may be a 5xx; API-style 4xx are GitLab's JSON; the server must outlive
// the run and answer a plain GET afterwards. FUZZ_RUNS and FUZZ_SEED scale and reseed it as for the other fuzz tests.
import net from 'node:net'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../helpers/server.js'
import { formArb, encodingArb, gzipBomb, jsonArb, multipartArb, type Payload } from './body-payloads.js'
import { bodyRequestArb, headerRequestArb } from './body-targets.js'
import { describe, problemsOf, type Answer } from './check.js'
import { endpointSeed, FuzzHarness } from './harness.js'
import type { FuzzRequest } from './requests.js'
import { isGitPath } from './routes-git.js'
import { sendRaw } from './routes-raw.js'
import type { World } from './world.js'

const scale = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / 50 : 1
const seed = Number(process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Date.now() % 2 ** 31 : 20261129))
const runs = (n: number) => Math.max(1, Math.round(n * scale))

const harness = new FuzzHarness(() => startTestServer({ log: process.env.FUZZ_LOG === '1' }))

beforeAll(async () => {
  console.log(`body fuzz: seed ${seed}, counts ×${scale} (replay with FUZZ_SEED=${seed}${process.env.FUZZ_RUNS ? ` FUZZ_RUNS=${process.env.FUZZ_RUNS}` : ''})`)
  await harness.init()
}, 60_000)
afterAll(async () => {
  console.log(`body fuzz: ${harness.stats.requests} requests, ${JSON.stringify(harness.stats.byClass)} (${JSON.stringify(harness.stats.byStatus)}), world rebuilt ${harness.stats.rebuilds} times`)
  await harness.close()
})

/**
 * Git's own refusals are plain text, and a raw answer refuses a Range it cannot serve as RFC 9110 does (416 with
 * `Content-Range: bytes *\/size` and no body); everything else is judged as any API answer.
 */
function judged(r: FuzzRequest, problems: string[], answer?: Answer) {
  const rangeRefused = answer?.status === 416 && /^bytes \*\/\d+$/.test(String(answer.headers['content-range'])) && answer.text === ''
  return isGitPath(r.path) || rangeRefused ? problems.filter((p) => !/^a 4\d\d /.test(p)) : problems
}

async function fuzzFamily(name: string, arbOf: (w: World) => fc.Arbitrary<FuzzRequest>, numRuns: number) {
  const property = fc.asyncProperty(arbOf(harness.world), async (r) => {
    const { answer, problems } = await harness.send(r)
    const bad = judged(r, problems, answer)
    if (bad.length) throw new Error(`${bad.join('; ')}\n  ${describe(r, answer)}`)
  })
  try {
    await fc.assert(property, { seed: endpointSeed(seed, { method: 'BODY', path: name }), numRuns })
  } finally {
    await harness.ensureWhole()
  }
}

const encoded = (payload: fc.Arbitrary<Payload>) => fc.tuple(payload, encodingArb).map(([p, encode]) => encode(p))

const FAMILIES: [string, (w: World) => fc.Arbitrary<FuzzRequest>, number][] = [
  ['JSON bodies (malformed, deep, huge numbers, prototype keys)', (w) => bodyRequestArb(w, encoded(jsonArb)), 60],
  ['urlencoded forms (qs edge cases, deep brackets, many params)', (w) => bodyRequestArb(w, encoded(formArb)), 60],
  ['multipart forms (names, filenames, boundaries, truncation)', (w) => bodyRequestArb(w, encoded(multipartArb)), 90],
  ['every header the server reads, with hostile values', headerRequestArb, 80],
]

for (const [name, arbOf, count] of FAMILIES) {
  it(`${name}: every request answered, never a 5xx`, () => fuzzFamily(name, arbOf, runs(count)), 60_000 + runs(count) * 300)
}

/** Bytes over a bare socket, each request closing the connection: every status seen is judged, none may be a 5xx. */
async function judgeRaw(bytes: Buffer) {
  harness.stats.requests++
  const answer = await sendRaw(harness.world.target.url, bytes.toString('latin1'))
  for (const status of answer.statuses) harness.stats.byStatus[status] = (harness.stats.byStatus[status] ?? 0) + 1
  const line = JSON.stringify(bytes.subarray(0, 300).toString('latin1'))
  if (answer.statuses.length === 0) throw new Error(`no answer to ${line}`)
  if (answer.statuses.some((s) => s >= 500)) throw new Error(`answered ${answer.statuses.join(', ')} to ${line}`)
  const [method = '', path = ''] = bytes.subarray(0, 2000).toString('latin1').split(' ')
  const r = { method, path, headers: {} }
  const problems = answer.first ? judged(r, problemsOf(r, answer.first)) : ['unreadable answer']
  if (problems.length) throw new Error(`${problems.join('; ')} for ${line}: ${JSON.stringify(answer.first?.text.slice(0, 200))}`)
}

/** Writes the bytes and hangs up a moment later: a request whose body never arrives whole. */
function sendAndDrop(bytes: Buffer): Promise<void> {
  harness.stats.requests++
  const { hostname, port } = new URL(harness.world.target.url)
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write(bytes))
    socket.on('error', () => resolve())
    socket.on('close', () => resolve())
    socket.on('data', () => undefined)
    setTimeout(() => socket.destroy(), 30)
  })
}

const head = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`

/** A body as chunks of the given sizes, with an extension or odd spelling of the sizes where asked. */
function chunked(body: Buffer, sizes: number[], style: 'plain' | 'ext' | 'upper' | 'zeros' | 'trailer' | 'bad-size' | 'no-crlf' | 'overflow'): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (const size of [...sizes, body.length]) {
    if (at >= body.length) break
    const piece = body.subarray(at, at + Math.max(1, size))
    at += piece.length
    const hex = piece.length.toString(16)
    const line = style === 'ext' ? `${hex};name=value` : style === 'upper' ? hex.toUpperCase() : style === 'zeros' ? `000${hex}` : style === 'bad-size' ? `${hex}g` : style === 'overflow' ? 'ffffffffffffffffff' : hex
    parts.push(Buffer.from(`${line}\r\n`), piece, Buffer.from(style === 'no-crlf' ? '' : '\r\n'))
  }
  parts.push(Buffer.from(style === 'trailer' ? '0\r\nX-Trailer: 1\r\n\r\n' : '0\r\n\r\n'))
  return Buffer.concat(parts)
}

const RAW_TARGETS = ['PUT /api/v4/projects/fuzz-group%2Fpublic', 'POST /api/v4/projects/fuzz-group%2Fpublic/uploads', 'POST /oauth/token', 'POST /fuzz-group/public.git/git-upload-pack']
const CHUNK_STYLES = ['plain', 'ext', 'upper', 'zeros', 'trailer', 'bad-size', 'no-crlf', 'overflow'] as const

it('answers chunked bodies, however their chunks are spelled, without a 5xx', async () => {
  const w = harness.world
  const payload = fc.oneof(jsonArb, formArb, multipartArb)
  await fc.assert(fc.asyncProperty(fc.constantFrom(...RAW_TARGETS), payload, fc.array(fc.nat(40), { maxLength: 6 }), fc.constantFrom(...CHUNK_STYLES), fc.boolean(),
    async (target, p, sizes, style, zipped) => {
      const [method, path] = target.split(' ')
      const data = zipped ? gzipSync(p.data) : p.data
      const headers: Record<string, string> = { 'PRIVATE-TOKEN': w.tokens.root, 'Transfer-Encoding': 'chunked', ...(p.type ? { 'Content-Type': p.type } : {}), ...(zipped ? { 'Content-Encoding': 'gzip' } : {}) }
      await judgeRaw(Buffer.concat([Buffer.from(head(method, path, headers), 'latin1'), chunked(data, sizes, style)]))
    }), { seed: endpointSeed(seed, { method: 'BODY', path: 'chunked' }), numRuns: runs(40) })
}, 60_000 + runs(40) * 300)

it('answers Content-Lengths that lie, conflict or cannot be numbers without a 5xx', async () => {
  const w = harness.world
  const framings = (length: number): Record<string, string>[] => [
    { 'Content-Length': String(Math.max(0, length - 5)) }, { 'Content-Length': '999999999999' }, { 'Content-Length': '-1' }, { 'Content-Length': '1e3' },
    { 'Content-Length': `${length}, ${length + 1}` }, { 'Content-Length': ` ${length}` }, { 'Content-Length': `+${length}` }, { 'Content-Length': '0x10' },
    { 'Content-Length': String(length), 'Transfer-Encoding': 'chunked' }, { 'Transfer-Encoding': 'gzip' }, { 'Transfer-Encoding': 'chunked, chunked' },
    { 'Transfer-Encoding': 'identity' }, { 'Content-Length': '0' },
  ]
  await fc.assert(fc.asyncProperty(fc.constantFrom(...RAW_TARGETS), fc.oneof(jsonArb, formArb, multipartArb), fc.nat(12), async (target, p, at) => {
    const [method, path] = target.split(' ')
    const framing = framings(p.data.length)[at % 13]
    const headers = { 'PRIVATE-TOKEN': w.tokens.root, ...(p.type ? { 'Content-Type': p.type } : {}), ...framing }
    await judgeRaw(Buffer.concat([Buffer.from(head(method, path, headers), 'latin1'), p.data]))
  }), { seed: endpointSeed(seed, { method: 'BODY', path: 'lengths' }), numRuns: runs(40) })
}, 60_000 + runs(40) * 300)

it('outlives bodies that stop short of their Content-Length or their last chunk', async () => {
  const w = harness.world
  await fc.assert(fc.asyncProperty(fc.constantFrom(...RAW_TARGETS), fc.oneof(jsonArb, multipartArb), fc.boolean(), fc.boolean(), async (target, p, isChunked, zipped) => {
    const [method, path] = target.split(' ')
    const data = zipped ? gzipSync(p.data) : p.data
    const cut = data.subarray(0, Math.floor(data.length / 2))
    const framing: Record<string, string> = isChunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(data.length + 10) }
    const headers = { 'PRIVATE-TOKEN': w.tokens.root, ...(p.type ? { 'Content-Type': p.type } : {}), ...(zipped ? { 'Content-Encoding': 'gzip' } : {}), ...framing }
    await sendAndDrop(Buffer.concat([Buffer.from(head(method, path, headers), 'latin1'), isChunked ? Buffer.from(`${cut.length.toString(16)}\r\n`) : Buffer.alloc(0), cut]))
  }), { seed: endpointSeed(seed, { method: 'BODY', path: 'short' }), numRuns: runs(20) })
  expect((await harness.stillServes()).status).toBe(200)
}, 60_000 + runs(20) * 300)

const TOO_LARGE = { message: '413 Request Entity Too Large' }

it('stops a gzip bomb at the body limit: 413, not 30 MiB inflated into memory', async () => {
  const bomb = gzipBomb(30)
  const headers = { 'PRIVATE-TOKEN': harness.world.tokens.root, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) }
  harness.stats.requests++
  const answer = await sendRaw(harness.world.target.url, Buffer.concat([Buffer.from(head('PUT', '/api/v4/projects/fuzz-group%2Fpublic', headers)), bomb]).toString('latin1'))
  expect([answer.first?.status, JSON.parse(answer.first?.text ?? 'null')]).toEqual([413, TOO_LARGE])
})

it('stops a gzip bomb inside a multipart file at the attachment limit (100 MiB)', async () => {
  const b = 'bomb'
  const bomb = gzipBomb(130, `--${b}\r\nContent-Disposition: form-data; name="file"; filename="zeros.bin"\r\n\r\n`, `\r\n--${b}--\r\n`)
  const headers = { 'PRIVATE-TOKEN': harness.world.tokens.root, 'Content-Type': `multipart/form-data; boundary=${b}`, 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) }
  harness.stats.requests++
  const answer = await sendRaw(harness.world.target.url, Buffer.concat([Buffer.from(head('POST', '/api/v4/projects/fuzz-group%2Fpublic/uploads', headers)), bomb]).toString('latin1'))
  expect([answer.first?.status, JSON.parse(answer.first?.text ?? 'null')]).toEqual([413, TOO_LARGE])
})

it('still answers a plain GET after the run', async () => {
  const answer = await harness.stillServes()
  expect(answer.status).toBe(200)
  expect(JSON.parse(answer.text).path_with_namespace).toBe('fuzz-group/public')
})
