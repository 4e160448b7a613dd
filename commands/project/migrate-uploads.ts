// Attachments of copied texts: each `/uploads/<secret>/<file>` link (relative to its project) is downloaded from the
// source, uploaded to the target once, and the text links the target's copy. Where the source will not give the file
// (GitLab before 17.2 has no API for it, and it wants a Maintainer), the link points at the source project, where the file stays.
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { getBytes } from '../job/bytes.js'
import { multipartBody } from '../wiki/upload.js'
import type { Migration } from './migrate-context.js'
import { messageOf, statusOf } from './migrate-side.js'

const LINK = /(\]\(|<img src=")\/uploads\/([0-9a-f]{8,64})\/([^)\s"]+)/g

/** A text as the target shows it: its attachments copied and linked there. */
export async function carried(m: Migration, text: string | null): Promise<string> {
  if (!text) return ''
  const found = new Map<string, string>()
  for (const [, , secret, file] of text.matchAll(LINK)) found.set(`${secret}/${file}`, '')
  if (found.size === 0) return text
  for (const key of found.keys()) found.set(key, await copyUpload(m, key))
  return text.replace(LINK, (_, lead: string, secret: string, file: string) => `${lead}${found.get(`${secret}/${file}`)}`)
}

async function copyUpload(m: Migration, key: string): Promise<string> {
  const known = m.journal.get('upload', key)
  if (typeof known === 'string') return known
  const [secret, file] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)]
  let name = file
  try {
    name = decodeURIComponent(file)
  } catch {}
  let url: string
  try {
    const { body } = await getBytes(m.source.api, route('getProjectUpload', { id: m.from.id, secret, filename: name }))
    const { body: form, contentType } = multipartBody({ name, data: body }, {})
    const response = await m.target.api.call(route('uploadProjectFile', { id: m.to.id }), { body: form, headers: { 'Content-Type': contentType } })
    url = parseJson<{ url: string }>(response).url
  } catch (err) {
    const status = statusOf(err)
    if (status === undefined || status >= 500) throw err
    m.tally.problems.push(`attachment ${name}: ${messageOf(err)}; linked on the source`)
    return `${m.from.web_url}/uploads/${key}`
  }
  m.journal.record('upload', key, url)
  m.tally.copied.attachments = (m.tally.copied.attachments ?? 0) + 1
  return url
}
