// Avatars on POST /users, PUT /users/:id and PUT /user/avatar: stored under uploads/, avatar_url serves them.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Api } from '../../helpers/api.js'
import { adminFixture, answer } from './fixture.js'

const f = adminFixture()
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255])

function send(as: Api, method: string, path: string, fields: Record<string, string>, avatar?: [Buffer, string]) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (avatar) form.append('avatar', new Blob([new Uint8Array(avatar[0])]), avatar[1])
  return as.request(method, path, { body: form as any })
}

const fetchBytes = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) }
}

describe('avatars', () => {
  it('are stored on user creation and served at avatar_url to anyone', async () => {
    const res = await send(f.root, 'POST', '/users', { username: 'pic', email: 'pic@example.com', name: 'Pic', password: 'pic-password-1' }, [PNG, 'me face.png'])
    expect(res.status).toBe(201)
    const url = `${f.server.url}/uploads/-/system/user/avatar/${res.body.id}/me_face.png`
    expect(res.body.avatar_url).toBe(url)
    expect(await fetchBytes(url)).toEqual({ status: 200, type: 'image/png', data: PNG })
    expect((await f.bob.api.get(`/users/${res.body.id}`)).body.avatar_url).toBe(url)
  })

  it('are replaced by PUT /users/:id and PUT /user/avatar, the old file gone', async () => {
    const first = (await send(f.root, 'PUT', `/users/${f.bob.id}`, { bio: 'b' }, [PNG, 'one.png'])).body
    expect([first.bio, first.avatar_url]).toEqual(['b', `${f.server.url}/uploads/-/system/user/avatar/${f.bob.id}/one.png`])
    const own = await send(f.bob.api, 'PUT', '/user/avatar', {}, [PNG, 'two.gif'])
    const url = `${f.server.url}/uploads/-/system/user/avatar/${f.bob.id}/two.gif`
    expect([own.status, own.body]).toEqual([200, { avatar_url: url }])
    expect((await fetchBytes(url)).type).toBe('image/gif')
    expect((await fetchBytes(first.avatar_url)).status).toBe(404)
  })

  it('refuse other formats and files over 200 KiB, creating no user', async () => {
    const formats = 'png, jpg, jpeg, gif, bmp, tiff, ico, webp'
    const svg = await send(f.root, 'POST', '/users', { username: 'svg', email: 'svg@example.com', name: 'S', password: 'svg-password-1' }, [Buffer.from('<svg/>'), 'x.svg'])
    expect(answer(svg)).toEqual([400, JSON.stringify({ message: { avatar: [`file format is not supported. Please try one of the following supported formats: ${formats}`] } })])
    expect((await f.root.get('/users', { query: { username: 'svg' } })).body).toEqual([])
    const big = await send(f.alice.api, 'PUT', '/user/avatar', {}, [Buffer.alloc(200 * 1024 + 1), 'big.png'])
    expect(answer(big)).toEqual([400, '{"message":{"avatar":["is too big (should be at most 200 KiB)"]}}'])
    expect(answer(await f.alice.api.put('/user/avatar', { avatar: 'text' }))).toEqual([400, '{"message":{"avatar":["is invalid"]}}'])
  })

  it('go with their user, and unknown paths answer 404', async () => {
    const made = (await send(f.root, 'POST', '/users', { username: 'gone', email: 'gone@example.com', name: 'G', password: 'gone-password-1' }, [PNG, 'a.png'])).body
    const dir = join(f.server.dataDir, 'uploads', '-', 'system', 'user', 'avatar', String(made.id))
    expect(existsSync(dir)).toBe(true)
    await f.root.del(`/users/${made.id}`)
    expect(existsSync(dir)).toBe(false)
    expect((await fetchBytes(made.avatar_url)).status).toBe(404)
    expect((await fetchBytes(`${f.server.url}/uploads/-/system/user/avatar/x/..%2F..%2Fcollab.db`)).status).toBe(404)
  })
})
