// Upload names as GitLab keeps them (UploadedFile's CarrierWave sanitizing): a wiki attachment or project upload whose
// name carries a path, encoded (`..%2F..%2Fx.txt`) or not, is stored and linked by its sanitized last part only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { wikiFixture, type WikiFixture } from './fixture.js'

let f: WikiFixture

beforeAll(async () => {
  f = await wikiFixture()
})
afterAll(() => f.close())

// What the client sends, and the name GitLab stores.
const NAMES: Array<[string, string]> = [
  ['..%2F..%2Fx.txt', '.._2F.._2Fx.txt'],
  ['%2e%2e%2fsecret.txt', '_2e_2e_2fsecret.txt'],
  ['../../etc/report v2.pdf', 'report_v2.pdf'],
  ['C:\\Users\\me\\shot.png', 'shot.png'],
  ['<img src=x onerror=alert(1)>.txt', '_img_src_x_onerror_alert_1__.txt'],
  ['notes v1+2.md', 'notes_v1+2.md'],
  ['tab\there;rm -rf.txt', 'tab_here_rm_-rf.txt'],
]

const form = (name: string) => {
  const body = new FormData()
  body.append('file', new Blob(['content']), name)
  return body
}

describe('wiki attachments', () => {
  it('are committed and answered under their sanitized name, inside uploads/<hex>/', async () => {
    for (const [sent, stored] of NAMES) {
      const res = expectStatus(await f.developer.api.request('POST', `${f.wikis()}/attachments`, { body: form(sent) as any }), 201)
      expect({ sent, name: res.body.file_name }).toEqual({ sent, name: stored })
      expect(res.body.file_path).toMatch(new RegExp(`^uploads/[0-9a-f]{32}/${stored.replace(/[.+()]/g, '\\$&')}$`))
      expect(res.body.link.url).toBe(res.body.file_path)
    }
    const files = f.files()
    expect(files).toHaveLength(NAMES.length)
    for (const path of files) expect(path.split('/')).toHaveLength(3)
    expect(files.map((p) => p.split('/')[2]).sort()).toEqual(NAMES.map(([, stored]) => stored).sort())
  })
})

describe('project uploads', () => {
  it('are stored, linked and served under their sanitized name', async () => {
    for (const [sent, stored] of NAMES) {
      const res = expectStatus(await f.developer.api.request('POST', `/projects/${f.projectId}/uploads`, { body: form(sent) as any }), 201)
      const secret = /^\/uploads\/([0-9a-f]{32})\//.exec(res.body.url)![1]
      expect({ sent, url: res.body.url }).toEqual({ sent, url: `/uploads/${secret}/${stored}` })
      const served = await f.developer.api.get(`/projects/${f.projectId}/uploads/${secret}/${encodeURIComponent(stored)}`)
      expect(served.status).toBe(200)
    }
  })
})
