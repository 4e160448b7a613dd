// Uploads a file to a generic package without holding it in memory: streamed from disk as a PUT body, through a
// progress bar on a terminal. Exported for other commands that publish files (collab release upload).
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { CollabError } from '../../src/core/errors.js'
import { VERSION } from '../../src/core/version.js'
import { apiError, type ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { IO } from '../../src/cli/io.js'
import { progress, showsProgress } from '../job/transfer.js'

export interface GenericFile {
  /** The project's id or full path. */
  project: string
  name: string
  version: string
  /** The name it gets in the package. */
  fileName: string
  /** `hidden` keeps the package out of lists (still downloadable). */
  status?: 'default' | 'hidden'
}

/** Where a generic package file is uploaded and downloaded (relative to the API root). */
export const genericFileRoute = (f: Pick<GenericFile, 'project' | 'name' | 'version' | 'fileName'>) =>
  route('uploadGenericPackageFile', { id: f.project, package_name: f.name, package_version: f.version, file_name: f.fileName })

async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of res) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * PUTs `path` as the file `fileName` of a generic package, answering GitLab's package file record (`select=package_file`)
 * as text, for `--json` to print unchanged. A 4xx or 5xx answer is thrown as the client's ApiError.
 */
export async function uploadGenericFile(api: ApiClient, io: IO, path: string, file: GenericFile): Promise<string> {
  const size = (await stat(path)).size
  const url = api.url(genericFileRoute(file).path, { select: 'package_file', status: file.status })
  const headers: Record<string, string> = { 'User-Agent': `collab/${VERSION}`, 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) }
  const credentials = api.credentials()
  if (credentials) headers[credentials.header] = credentials.token
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  const req = request(url, { method: 'PUT', headers })
  const answered = new Promise<IncomingMessage>((resolve, reject) => { req.once('response', resolve); req.once('error', reject) })
  const body = createReadStream(path)
  // A server that refuses early (401, 413) answers before the whole body is sent and closes: its answer is what counts.
  const sent = (showsProgress(io) ? pipeline(body, progress(io, size), req) : pipeline(body, req)).catch(() => {})
  let res: IncomingMessage
  try {
    res = await answered
  } catch (err) {
    throw new CollabError('NETWORK', `cannot reach ${url.origin}: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
  }
  const text = await readAll(res)
  await sent
  const status = res.statusCode ?? 0
  if (status >= 400) {
    const rawHeaders: [string, string][] = []
    for (let i = 0; i < res.rawHeaders.length; i += 2) rawHeaders.push([res.rawHeaders[i], res.rawHeaders[i + 1]])
    throw apiError({ method: 'PUT', url: url.href, status, statusText: res.statusMessage ?? '', rawHeaders, text })
  }
  return text
}
