// Blame, blobs by id, merge base and commit signatures, with GitLab's bodies and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BlameRange, Blob, CommitSignature } from '../../../src/contract/entities/repository-reads.js'
import { createProject, createUser, expectStatus, request, type TestUser } from '../../helpers/api.js'
import { commit, create, gitIn, repo, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

let server: TestServer
let alice: TestUser
let id: number
let first: string
let second: string
let side: string
/** Commits as the list presents them (no stats), by id. */
const listed = new Map<string, unknown>()

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05Z') })
  alice = await createUser(server, 'alice', { name: 'Alice Liddell' })
  id = (await createProject(alice.api, { name: 'reads' })).id
  first = (await commit(alice.api, id, { branch: 'main', commit_message: 'First', actions: [create('a.txt', '1\n2\n3\n'), create('bin.dat', '\u0000\u0001x')] })).id
  expectStatus(await alice.api.post(`${repo(id)}/branches`, { branch: 'side', ref: 'main' }), 201)
  second = (await commit(alice.api, id, { branch: 'main', commit_message: 'Second', actions: [update('a.txt', '1\nTWO\n3\n')] })).id
  side = (await commit(alice.api, id, { branch: 'side', commit_message: 'Side', actions: [create('s.txt', 's\n')] })).id
  for (const ref of ['main', 'side']) {
    for (const c of expectStatus(await alice.api.get(`${repo(id)}/commits`, { query: { ref_name: ref } }), 200).body) listed.set(c.id, c)
  }
})
afterAll(() => server.close())

describe('GET …/files/:file_path/blame', () => {
  it('answers runs of lines with the commit that last changed them', async () => {
    const res = expectStatus(await alice.api.get(`${repo(id)}/files/a.txt/blame`, { query: { ref: 'main' } }), 200)
    expect(res.body).toEqual([
      { commit: listed.get(first), lines: ['1'] }, { commit: listed.get(second), lines: ['TWO'] }, { commit: listed.get(first), lines: ['3'] },
    ])
    for (const r of res.body) BlameRange.parse(r)
  })

  it('blames a range only, and the lines there are of a range past the end', async () => {
    const res = expectStatus(await alice.api.get(`${repo(id)}/files/a.txt/blame`, { query: 'range[start]=2&range[end]=9' }), 200)
    expect(res.body).toEqual([{ commit: listed.get(second), lines: ['TWO'] }, { commit: listed.get(first), lines: ['3'] }])
    expect(expectStatus(await alice.api.get(`${repo(id)}/files/a.txt/blame`, { query: 'range[start]=7&range[end]=9' }), 200).body).toEqual([])
  })

  it.each([
    ['range[start]=3&range[end]=2', 400, '{"message":"400 Bad request - range[start] must be less than or equal to range[end]"}'],
    ['range[start]=0&range[end]=2', 400, '{"message":{"range[start]":["does not have a valid value"]}}'],
    ['range[start]=x&range[end]=2', 400, '{"message":{"range.start":["is invalid"]}}'],
    ['ref=nope', 404, '{"message":"404 Commit Not Found"}'],
  ])('answers %s with %i', async (query, status, body) => {
    const res = await alice.api.get(`${repo(id)}/files/a.txt/blame`, { query })
    expect([res.status, res.text]).toEqual([status, body])
  })

  it('answers 404 for a missing file', async () => {
    const res = await alice.api.get(`${repo(id)}/files/missing.txt/blame`)
    expect([res.status, res.text]).toEqual([404, '{"message":"404 File Not Found"}'])
  })
})

describe('GET …/blobs/:sha and …/raw', () => {
  const A = '01e79c32a8c99c557f0757da7cb6d65b3414466d' // printf '1\n2\n3\n' | git hash-object --stdin

  it('answers the blob base64-encoded, by full or short id', async () => {
    const body = { size: 6, encoding: 'base64', content: Buffer.from('1\n2\n3\n').toString('base64'), sha: A }
    expect(expectStatus(await alice.api.get(`${repo(id)}/blobs/${A}`), 200).body).toEqual(body)
    expect(expectStatus(await alice.api.get(`${repo(id)}/blobs/${A.slice(0, 8)}`), 200).body).toEqual(body)
    Blob.parse(body)
  })

  it('answers the raw bytes, text as UTF-8 text and binary as octet-stream', async () => {
    const text = await fetch(`${server.api}${repo(id)}/blobs/${A}/raw`, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect([text.status, text.headers.get('content-type'), await text.text()]).toEqual([200, 'text/plain; charset=utf-8', '1\n2\n3\n'])
    const oid = gitIn(server, id, ['rev-parse', `${first}:bin.dat`]).trim()
    const bin = await fetch(`${server.api}${repo(id)}/blobs/${oid}/raw`, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect([bin.status, bin.headers.get('content-type'), Buffer.from(await bin.arrayBuffer())]).toEqual([200, 'application/octet-stream', Buffer.from([0, 1, 0x78])])
  })

  it.each(['0000000000000000000000000000000000000000', 'zz', first])('answers 404 Blob Not Found for %s', async (sha) => {
    for (const path of [`blobs/${sha}`, `blobs/${sha}/raw`]) {
      const res = await alice.api.get(`${repo(id)}/${path}`)
      expect([res.status, res.text]).toEqual([404, '{"message":"404 Blob Not Found"}'])
    }
  })
})

describe('GET …/merge_base', () => {
  it('answers the common ancestor as a commit', async () => {
    const res = expectStatus(await alice.api.get(`${repo(id)}/merge_base`, { query: { refs: ['main', 'side'] } }), 200)
    expect(res.body).toEqual(listed.get(first))
    expect(expectStatus(await alice.api.get(`${repo(id)}/merge_base`, { query: `refs=${second},side` }), 200).body).toEqual(listed.get(first))
  })

  it.each([
    [{ refs: ['main'] }, 400, '{"message":"Provide at least 2 refs"}'],
    [{ refs: ['main', 'nope'] }, 400, '{"message":"Could not find ref: nope"}'],
    [{ refs: ['x', 'main', 'y'] }, 400, '{"message":"Could not find refs: x, y"}'],
    [{}, 400, '{"message":"400 (Bad request) \\"refs\\" not given"}'],
  ])('answers %j with %i', async (query, status, body) => {
    const res = await alice.api.get(`${repo(id)}/merge_base`, { query })
    expect([res.status, res.text]).toEqual([status, body])
  })

  it('answers 404 Merge Base Not Found for unrelated histories', async () => {
    const tree = gitIn(server, id, ['mktree'], { input: '' }).trim()
    const orphan = gitIn(server, id, ['commit-tree', tree, '-m', 'orphan'], { env: ENV }).trim()
    const res = await alice.api.get(`${repo(id)}/merge_base`, { query: { refs: ['main', orphan] } })
    expect([res.status, res.text]).toEqual([404, '{"message":"404 Merge Base Not Found"}'])
  })
})

const ENV = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@x', GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000' }

/** A v4 OpenPGP signature packet carrying an issuer fingerprint (hashed) and key id (unhashed); the rest is filler. */
function pgpPacket(fingerprint: string | null, keyId: string) {
  const hashed = fingerprint ? Buffer.concat([Buffer.from([22, 33, 4]), Buffer.from(fingerprint, 'hex')]) : Buffer.alloc(0)
  const unhashed = Buffer.concat([Buffer.from([9, 16]), Buffer.from(keyId, 'hex')])
  const len = (b: Buffer) => Buffer.from([b.length >> 8, b.length & 255])
  const body = Buffer.concat([Buffer.from([4, 0, 1, 8]), len(hashed), hashed, len(unhashed), unhashed, Buffer.from([0xab, 0xcd, 0, 1, 1])])
  return Buffer.concat([Buffer.from([0xc2, body.length]), body])
}

const armor = (kind: string, body: Buffer) => `-----BEGIN ${kind}-----\n\n${body.toString('base64')}\n=abcd\n-----END ${kind}-----`

/** A commit on top of main whose gpgsig header holds `signature`, made with git hash-object. */
function signedCommit(signature: string) {
  const tree = gitIn(server, id, ['rev-parse', `${second}^{tree}`]).trim()
  const sig = signature.split('\n').join('\n ')
  const raw = `tree ${tree}\nparent ${second}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\ngpgsig ${sig}\n\nsigned\n`
  return gitIn(server, id, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: raw }).trim()
}

describe('GET …/commits/:sha/signature', () => {
  const FP = '0123456789ABCDEF0123456789ABCDEF01234567'

  it('answers 404 Signature Not Found for an unsigned commit, 404 Commit Not Found for none', async () => {
    const unsigned = await alice.api.get(`${repo(id)}/commits/${second}/signature`)
    expect([unsigned.status, unsigned.text]).toEqual([404, '{"message":"404 Signature Not Found"}'])
    const none = await alice.api.get(`${repo(id)}/commits/nope/signature`)
    expect([none.status, none.text]).toEqual([404, '{"message":"404 Commit Not Found"}'])
  })

  it('answers a GPG signature with the issuer fingerprint, else its key id, as an unknown key', async () => {
    for (const [fp, expected] of [[FP, FP], [null, '89ABCDEF01234567']] as const) {
      const oid = signedCommit(armor('PGP SIGNATURE', pgpPacket(fp, '89abcdef01234567')))
      const res = expectStatus(await alice.api.get(`${repo(id)}/commits/${oid}/signature`), 200)
      expect(res.body).toEqual({
        signature_type: 'PGP', verification_status: 'unknown_key', gpg_key_id: null, gpg_key_primary_keyid: expected,
        gpg_key_user_name: null, gpg_key_user_email: null, gpg_key_subkey_id: null, commit_source: 'gitaly',
      })
      CommitSignature.parse(res.body)
    }
  })

  it('answers SSH and X.509 signatures in their shapes, and a garbled PGP block names no key', async () => {
    const cases: [string, unknown][] = [
      [armor('SSH SIGNATURE', Buffer.from('SSHSIG')), { signature_type: 'SSH', verification_status: 'unknown_key', key: null, commit_source: 'gitaly' }],
      [armor('SIGNED MESSAGE', Buffer.from('x509')), { signature_type: 'X509', verification_status: 'unverified', x509_certificate: null, commit_source: 'gitaly' }],
      [armor('PGP SIGNATURE', Buffer.from([0xc2, 0xff, 4])), {
        signature_type: 'PGP', verification_status: 'unknown_key', gpg_key_id: null, gpg_key_primary_keyid: null,
        gpg_key_user_name: null, gpg_key_user_email: null, gpg_key_subkey_id: null, commit_source: 'gitaly',
      }],
    ]
    for (const [signature, body] of cases) {
      const res = await alice.api.get(`${repo(id)}/commits/${signedCommit(signature)}/signature`)
      expect([res.status, res.body]).toEqual([200, body])
    }
  })

  it('hides the reads of a private project from strangers', async () => {
    const res = await request(server, 'GET', `/api/v4${repo(id)}/blobs/${first}`)
    expect([res.status, res.text]).toEqual([404, '{"message":"404 Project Not Found"}'])
  })
})
