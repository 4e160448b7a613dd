// collab wiki upload <file>: commit a file under the wiki's uploads/ and print the markdown that links it.
import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { basename } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw, status } from '../../src/cli/output.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export interface UploadOptions { project?: string; file: string; branch?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('upload')
    .description("Upload a file to the wiki repository's uploads/ and print its markdown link")
    .argument('<file>', 'the file to upload')
    .option('-b, --branch <branch>', 'the wiki branch to commit to (default: the wiki\'s default branch)')
  withJson(withProject(withConnection(command))).action((file: string, flags: OptionValues) => rt.invoke(command, run, toOptions(file, flags)))
}

export const toOptions = (file: string, flags: OptionValues): UploadOptions => ({ project: flags.project, file, branch: flags.branch, json: flags.json === true })

const quoted = (name: string) => name.replace(/[\r\n"\\]/g, (c) => encodeURIComponent(c))

/** A multipart/form-data body of the file and the fields: the API takes uploads in no other form. */
export function multipartBody(file: { name: string; data: Buffer }, fields: Record<string, string | undefined>) {
  const boundary = `collab-${randomBytes(12).toString('hex')}`
  const parts: Buffer[] = []
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.name)}"\r\nContent-Type: application/octet-stream\r\n\r\n`))
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` }
}

export async function run(options: UploadOptions, deps: Deps): Promise<void> {
  let data: Buffer
  try {
    data = await fs.readFile(options.file)
  } catch (err) {
    throw usageError(`cannot read ${options.file}: ${(err as Error).message}`)
  }
  const { api, ref } = await deps.project(options.project)
  const { body, contentType } = multipartBody({ name: basename(options.file), data }, { branch: options.branch })
  const target = route('uploadWikiAttachment', { id: ref })
  const response = await api.request(target.method, target.path, { body, headers: { 'Content-Type': contentType } })
  if (options.json) return printRaw(deps.io, response.text)
  const answer = parseJson<ResponseOf<'uploadWikiAttachment'>>(response)
  deps.io.stdout.write(`${answer.link.markdown}\n`)
  status(deps.io, `Uploaded ${answer.file_name} to ${answer.file_path} on ${answer.branch} in the wiki of ${ref}`)
}
