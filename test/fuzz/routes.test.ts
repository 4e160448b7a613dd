// The route fuzz: what the contract fuzz cannot reach because no endpoint declares it. OAuth token and revoke, web
// sign-in and sign-out, git smart HTTP, unknown paths and methods, and requests node's client will not write. No answer
// may be a 5xx or missing; API-style 4xx are GitLab's JSON (git's own plain text is fine on git paths); afterwards the
// server still answers a plain GET and a real `git clone` over HTTP works.
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { expectStatus, request } from '../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer } from '../helpers/server.js'
import { postSignIn } from '../helpers/web-sign-in.js'
import { describe, problemsOf } from './check.js'
import { endpointSeed, FuzzHarness } from './harness.js'
import type { FuzzRequest } from './requests.js'
import { gitArb, isGitPath } from './routes-git.js'
import { hangUp, RAW_REQUESTS, rawArb, sendRaw } from './routes-raw.js'
import { oauthRevokeArb, oauthTokenArb, signInArb, signOutArb, topLevelArb, type Spare } from './routes-requests.js'
import { PASSWORD, type World } from './world.js'

// CI: a fixed seed and the counts below. FUZZ_RUNS multiplies every count by FUZZ_RUNS / 50 (the contract fuzz's
// default per endpoint) and picks a fresh seed unless FUZZ_SEED is given; FUZZ_LOG=1 logs the server's errors.
const scale = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) / 50 : 1
const seed = Number(process.env.FUZZ_SEED ?? (process.env.FUZZ_RUNS ? Date.now() % 2 ** 31 : 20261124))
const runs = (n: number) => Math.max(1, Math.round(n * scale))

const harness = new FuzzHarness(() => startTestServer({ log: process.env.FUZZ_LOG === '1' }))
let git: GitCli

/** Credentials these routes may use up; made again whenever the harness rebuilt its world (a new server). */
let spare: { world: World; credentials: Spare } | undefined

async function spareCredentials(w: World): Promise<Spare> {
  if (spare?.world === w) return spare.credentials
  const credentials: Spare = { refreshTokens: [], accessTokens: [], sessions: [] }
  for (const username of ['alice', 'bob']) {
    const grant = await request(w.target, 'POST', '/oauth/token', { json: { grant_type: 'password', username, password: PASSWORD } })
    const body = expectStatus(grant, 200).body as { access_token: string; refresh_token: string }
    credentials.accessTokens.push(body.access_token)
    credentials.refreshTokens.push(body.refresh_token)
    const signIn = await postSignIn(w.target, { 'user[login]': username, 'user[password]': PASSWORD })
    credentials.sessions.push((signIn.headers.get('set-cookie') ?? '').split(';')[0].split('=')[1])
  }
  spare = { world: w, credentials }
  return credentials
}

/** Git's own answers are plain text: on git paths only a 5xx, a missing answer or JSON that is not JSON counts. */
function judged(r: FuzzRequest, problems: string[]) {
  return isGitPath(r.path) ? problems.filter((p) => !/^a 4\d\d /.test(p)) : problems
}

type ArbOf = (w: World, s: Spare) => fc.Arbitrary<FuzzRequest>

/** Runs one family of requests; fast-check shrinks the first bad answer to the smallest request that gives it. */
async function fuzzRoutes(name: string, arbOf: ArbOf, numRuns: number) {
  const w = harness.world
  const property = fc.asyncProperty(arbOf(w, await spareCredentials(w)), async (r) => {
    const { answer, problems } = await harness.send(r)
    const bad = judged(r, problems)
    if (bad.length) throw new Error(`${bad.join('; ')}\n  ${describe(r, answer)}`)
  })
  try {
    await fc.assert(property, { seed: endpointSeed(seed, { method: 'ROUTES', path: name }), numRuns })
  } finally {
    await harness.ensureWhole()
  }
}

beforeAll(async () => {
  console.log(`route fuzz: seed ${seed}, counts ×${scale} (replay with FUZZ_SEED=${seed}${process.env.FUZZ_RUNS ? ` FUZZ_RUNS=${process.env.FUZZ_RUNS}` : ''})`)
  await harness.init()
  git = gitCli()
})
afterAll(async () => {
  console.log(`route fuzz: ${harness.stats.requests} requests, ${JSON.stringify(harness.stats.byClass)} (${JSON.stringify(harness.stats.byStatus)}), world rebuilt ${harness.stats.rebuilds} times`)
  await harness.close()
  git?.cleanup()
})

const FAMILIES: [string, ArbOf, number][] = [
  ['POST /oauth/token (password and refresh grants)', oauthTokenArb, 150],
  ['POST /oauth/revoke', oauthRevokeArb, 60],
  ['POST /users/sign_in', (w) => signInArb(w), 80],
  ['DELETE /users/sign_out', signOutArb, 40],
  ['git smart HTTP (info/refs, upload-pack, receive-pack)', (w) => gitArb(w), 300],
  ['unknown paths and methods at the top level', (w) => topLevelArb(w), 200],
]

for (const [name, arbOf, count] of FAMILIES) {
  it(`${name}: every request answered, never a 5xx`, () => fuzzRoutes(name, arbOf, runs(count)), 60_000 + runs(count) * 500)
}

it('answers batches of concurrent credential, git and stray requests without a 5xx', async () => {
  const property = (w: World, s: Spare) => fc.asyncProperty(fc.array(fc.oneof(...FAMILIES.map(([, arbOf]) => arbOf(w, s))), { minLength: 2, maxLength: 6 }), async (batch) => {
    const results = await Promise.all(batch.map(async (r) => ({ r, ...(await harness.send(r, true)) })))
    const bad = results.filter((x) => judged(x.r, x.problems).length > 0)
    if (bad.length) throw new Error(bad.map((x) => `${x.problems.join('; ')}\n  ${describe(x.r, x.answer)}`).join('\n'))
  })
  try {
    await fc.assert(property(harness.world, await spareCredentials(harness.world)), { seed, numRuns: runs(30) })
  } finally {
    await harness.ensureWhole()
  }
}, 60_000 + runs(30) * 2000)

/** Sends bytes over a bare socket: every request answered, no 5xx, a GitLab JSON body for an API-style 4xx. */
async function judgeRaw(url: string, bytes: string) {
  harness.stats.requests++
  const answer = await sendRaw(url, bytes)
  const line = JSON.stringify(bytes.length > 300 ? bytes.slice(0, 300) + '…' : bytes)
  const { byClass, byStatus } = harness.stats
  for (const status of answer.statuses) byStatus[status] = (byStatus[status] ?? 0) + 1
  const cls = answer.first ? `${Math.floor(answer.first.status / 100)}xx` : 'no answer'
  byClass[cls] = (byClass[cls] ?? 0) + 1
  if (answer.statuses.length === 0) throw new Error(`no answer to ${line}`)
  if (answer.statuses.some((s) => s >= 500)) throw new Error(`answered ${answer.statuses.join(', ')} to ${line}`)
  const [method = '', path = ''] = bytes.replace(/^\s+/, '').split(' ')
  const r = { method, path, headers: {} }
  const problems = answer.first ? judged(r, problemsOf(r, answer.first)) : ['unreadable answer']
  if (problems.length) throw new Error(`${problems.join('; ')} for ${line}: ${JSON.stringify(answer.first?.text.slice(0, 200))}`)
}

it('answers each of the requests node\'s client will not write (odd request lines, framing, headers) without a 5xx', async () => {
  const failures: string[] = []
  for (const bytes of RAW_REQUESTS) await judgeRaw(harness.world.target.url, bytes).catch((err: Error) => failures.push(err.message))
  expect(failures).toEqual([])
}, 60_000)

it('answers odd request lines assembled at random without a 5xx', async () => {
  await fc.assert(fc.asyncProperty(rawArb, (bytes) => judgeRaw(harness.world.target.url, bytes)), { seed, numRuns: runs(100) })
}, 60_000 + runs(100) * 200)

it('outlives clients that hang up mid-request (a push holds the repository lock while git reads its body)', async () => {
  const w = harness.world
  const requests = fc.oneof(gitArb(w), oauthTokenArb(w, await spareCredentials(w)), topLevelArb(w))
  await fc.assert(fc.asyncProperty(requests, fc.nat(), fc.integer({ min: 0, max: 50 }), async (r, cut, ms) => {
    harness.stats.requests++
    await hangUp(w.target.url, r, cut, ms)
  }), { seed, numRuns: runs(40) })
  // The lock and the git processes are released: a push-like API write to the same project and a read both answer.
  const branch = await request(w.target, 'POST', `/api/v4/projects/${encodeURIComponent('fuzz-group/public')}/repository/branches`, {
    headers: { 'PRIVATE-TOKEN': w.tokens.root }, json: { branch: 'after-hang-ups', ref: w.segments.branch[0] },
  })
  expect(branch.status).toBe(201)
}, 60_000 + runs(40) * 500)

it('still answers a plain GET after the run', async () => {
  const answer = await harness.stillServes()
  expect(answer.status).toBe(200)
  expect(JSON.parse(answer.text).path_with_namespace).toBe('fuzz-group/public')
})

it('still serves a real git clone over HTTP after the run', async () => {
  const w = harness.world
  await git.run(git.root, 'clone', '-q', urlWithCredentials(w.target.url, '/fuzz-group/public.git', 'alice', w.tokens.alice), 'public')
  expect(await git.run(join(git.root, 'public'), 'show', '-s', '--format=%s', 'HEAD')).toBe('add files')
}, 30_000)
