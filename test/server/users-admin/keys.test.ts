// SSH keys (/user/keys, /users/:id/keys, /keys) and GPG keys (/user/gpg_keys, /users/:id/gpg_keys).
import { describe, expect, it } from 'vitest'
import { api, createUser, type Api, type TestUser } from '../../helpers/api.js'
import { adminFixture, answer, NOW } from './fixture.js'

// Made with ssh-keygen; the fingerprints are what `ssh-keygen -l` (and `-E md5 -l`) prints for them.
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKvLcGz0+0PWzqR443qQ7U7GmgBtmDW+9TLE97KQHuab alice@example'
const ED25519_SHA256 = 'SHA256:kMbkGdAz70qNJeJstAeh2pu14aQ/sh2efFrIxqG1aw4'
const ED25519_MD5 = '81:2f:8d:d2:a7:5a:81:90:ab:e0:a7:49:e3:0b:f3:c3'
const RSA = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCVYzs/yEiPQjH/GLuN1Sle9vNC76MS+fwek93C5/NBexEBYXejVPiYM0yZUQWJsPiHHYTGtjVQIFrEIR/p+mXjzyP33vLhiSpu+9xDmYd8j2lC59Q0AwSs5vir2gtLxjzNGDAsvWqqOss68JKGlV9pNst9xeM/qDmPjKutGZGuJQ== bob@host'
const RSA_SHA256 = 'SHA256:JuCkl76haOjGdeAKutyFgpX2hPoYeq/51juIsIA9bcg'
const GPG = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZQAAABYJKwYBBAHaRw8BAQdA\n=abcd\n-----END PGP PUBLIC KEY BLOCK-----'

const f = adminFixture()

describe('SSH keys', () => {
  it('adds, lists, reads and deletes the caller\'s own keys', async () => {
    const add = await f.alice.api.post('/user/keys', { title: 'laptop', key: ED25519, expires_at: '2030-01-01T00:00:00Z' })
    const key = { id: add.body.id, title: 'laptop', created_at: NOW, expires_at: '2030-01-01T00:00:00.000Z', key: ED25519, usage_type: 'auth_and_signing' }
    expect([add.status, add.body]).toEqual([201, key])
    expect((await f.alice.api.get('/user/keys')).body).toEqual([key])
    expect((await f.alice.api.get(`/user/keys/${key.id}`)).body).toEqual(key)
    expect((await f.bob.api.get('/users/alice/keys')).body).toEqual([key])
    expect((await f.bob.api.get(`/users/${f.alice.id}/keys/${key.id}`)).body).toEqual(key)
    expect(answer(await f.bob.api.get(`/user/keys/${key.id}`))).toEqual([404, '{"message":"404 Key Not Found"}'])
    expect(answer(await f.bob.api.del(`/user/keys/${key.id}`))).toEqual([404, '{"message":"404 Key Not Found"}'])
    expect(answer(await f.alice.api.del(`/user/keys/${key.id}`))).toEqual([204, ''])
    expect((await f.alice.api.get('/user/keys')).body).toEqual([])
  })

  it('finds a key by either fingerprint with its owner, for administrators', async () => {
    const add = await f.root.post(`/users/${f.bob.id}/keys`, { title: 'ci', key: RSA, usage_type: 'auth' })
    expect([add.status, add.body.usage_type, add.body.key]).toEqual([201, 'auth', RSA])
    const bySha = await f.root.get('/keys', { query: { fingerprint: RSA_SHA256 } })
    expect([bySha.status, bySha.body.id, bySha.body.user.username]).toEqual([200, add.body.id, 'bob'])
    expect((await f.root.get(`/keys/${add.body.id}`)).body.user.id).toBe(f.bob.id)
    await f.alice.api.post('/user/keys', { title: 'e', key: ED25519 })
    expect((await f.root.get('/keys', { query: { fingerprint: `MD5:${ED25519_MD5}` } })).body.title).toBe('e')
    expect((await f.root.get('/keys', { query: { fingerprint: ED25519_SHA256 } })).body.user.username).toBe('alice')
    expect(answer(await f.root.get('/keys', { query: { fingerprint: 'SHA256:nope' } }))).toEqual([404, '{"message":"404 Key Not Found"}'])
    expect(answer(await f.alice.api.get(`/keys/${add.body.id}`))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.root.del(`/users/${f.bob.id}/keys/${add.body.id}`))).toEqual([204, ''])
  })

  it.each([
    ['a key that is not one', { title: 't', key: 'ssh-rsa not-base64!' }, { key: ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'], fingerprint_sha256: ['cannot be generated'] }],
    ['an unknown type', { title: 't', key: 'ssh-foo AAAA' }, { key: ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'], fingerprint_sha256: ['cannot be generated'] }],
    ['a blob of another type than declared', { title: 't', key: RSA.replace('ssh-rsa', 'ssh-ed25519') }, { key: ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'], fingerprint_sha256: ['cannot be generated'] }],
    ['a blank title', { title: ' ', key: RSA }, { title: ["can't be blank"] }],
    ['an expiry in the past', { title: 't', key: RSA, expires_at: '2020-01-01' }, { key: ['has expired'] }],
  ])('refuses %s with 400', async (_n, body, message) => {
    expect(answer(await f.bob.api.post('/user/keys', body))).toEqual([400, JSON.stringify({ message })])
  })

  it('refuses a key already added by anyone', async () => {
    await f.bob.api.post('/user/keys', { title: 'one', key: RSA })
    expect(answer(await f.alice.api.post('/user/keys', { title: 'two', key: RSA }))).toEqual([400, '{"message":{"fingerprint_sha256":["has already been taken"]}}'])
  })

  it('answers 400 for missing attributes, 404 for an unknown user, 403 for admin routes', async () => {
    expect(answer(await f.bob.api.post('/user/keys', { key: RSA }))).toEqual([400, '{"message":"400 (Bad request) \\"title\\" not given"}'])
    expect(answer(await f.bob.api.get('/users/nobody/keys'))).toEqual([404, '{"message":"404 User Not Found"}'])
    expect(answer(await f.bob.api.post(`/users/${f.alice.id}/keys`, { title: 't', key: ED25519 }))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.root.post('/users/9999/keys', { title: 't', key: ED25519 }))).toEqual([404, '{"message":"404 User Not Found"}'])
  })
})

describe('GPG keys', () => {
  it('adds, lists, reads and deletes armored public keys', async () => {
    const add = await f.alice.api.post('/user/gpg_keys', { key: GPG })
    const key = { id: add.body.id, key: GPG, created_at: NOW }
    expect([add.status, add.body]).toEqual([201, key])
    expect((await f.alice.api.get('/user/gpg_keys')).body).toEqual([key])
    expect((await f.bob.api.get(`/users/${f.alice.id}/gpg_keys`)).body).toEqual([key])
    expect((await f.bob.api.get(`/users/${f.alice.id}/gpg_keys/${key.id}`)).body).toEqual(key)
    expect(answer(await f.bob.api.post(`/users/${f.alice.id}/gpg_keys`, { key: GPG }))).toEqual([403, '{"message":"403 Forbidden"}'])
    expect(answer(await f.alice.api.post('/user/gpg_keys', { key: GPG }))).toEqual([400, '{"message":{"key":["has already been taken"]}}'])
    expect(answer(await f.root.del(`/users/${f.alice.id}/gpg_keys/${key.id}`))).toEqual([204, ''])
    const again = (await f.alice.api.post('/user/gpg_keys', { key: GPG })).body
    expect(answer(await f.bob.api.post(`/user/gpg_keys/${again.id}/revoke`))).toEqual([404, '{"message":"404 GPG Key Not Found"}'])
    expect(answer(await f.alice.api.post(`/user/gpg_keys/${again.id}/revoke`))).toEqual([202, ''])
    const third = (await f.alice.api.post('/user/gpg_keys', { key: GPG })).body
    expect(answer(await f.root.post(`/users/${f.alice.id}/gpg_keys/${third.id}/revoke`))).toEqual([202, ''])
    expect((await f.alice.api.get('/user/gpg_keys')).body).toEqual([])
    expect(answer(await f.alice.api.get(`/user/gpg_keys/${key.id}`))).toEqual([404, '{"message":"404 GPG Key Not Found"}'])
  })

  it('refuses text that is not one armored public key block', async () => {
    const message = { key: ["is invalid. A valid public GPG key begins with '-----BEGIN PGP PUBLIC KEY BLOCK-----' and ends with '-----END PGP PUBLIC KEY BLOCK-----'"] }
    expect(answer(await f.alice.api.post('/user/gpg_keys', { key: 'hello' }))).toEqual([400, JSON.stringify({ message })])
    expect(answer(await f.alice.api.post('/user/gpg_keys', { key: `${GPG}\n${GPG}` }))).toEqual([400, JSON.stringify({ message })])
  })
})
