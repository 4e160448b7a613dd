// collab api <path>: an authenticated request to any v4 endpoint, with gh api's flags (-X, -f, -F, -H, --paginate, -i, --input).
import { readFile } from 'node:fs/promises'
import type { Command, OptionValues } from 'commander'
import { apiError, type ApiClient, type ApiResponse } from '../src/client/http.js'
import { joinJsonArrays } from '../src/client/pagination.js'
import { encodeRef } from '../src/client/paths.js'
import { collect, withConnection, withJsonFilters, withProject, type Runtime } from '../src/cli/command.js'
import { usageError } from '../src/cli/errors.js'
import { printRaw } from '../src/cli/output.js'
import type { Deps } from '../src/cli/factory.js'

export const summary = 'Make an authenticated request to the v4 API and print the response'

export interface ApiOptions {
  endpoint: string
  method?: string
  /** `-f key=value`: strings. */
  rawFields: string[]
  /** `-F key=value`: true, false, null and integers typed; `@file` (or `@-`) read. */
  typedFields: string[]
  headers: string[]
  paginate: boolean
  include: boolean
  input?: string
  project?: string
}

export function register(command: Command, rt: Runtime): void {
  command
    .argument('<path>', 'endpoint relative to /api/v4, e.g. projects or /projects/:id/issues (:id and :fullpath mean the current project)')
    .option('-X, --method <method>', 'HTTP method (default: GET, or POST with fields or --input)')
    .option('-f, --raw-field <key=value>', 'a string parameter (repeatable)', collect)
    .option('-F, --field <key=value>', 'a typed parameter: true, false, null, numbers, @file (repeatable)', collect)
    .option('-H, --header <key:value>', 'an extra request header (repeatable)', collect)
    .option('--paginate', 'follow Link rel="next" and join the pages')
    .option('-i, --include', 'print the status line and headers before the body')
    .option('--input <file>', 'request body from a file (- for stdin); fields then go to the query string')
  withJsonFilters(withProject(withConnection(command))).action((endpoint: string, flags: OptionValues) => rt.invoke(command, run, toOptions(endpoint, flags)))
}

export const toOptions = (endpoint: string, flags: OptionValues): ApiOptions => ({
  endpoint,
  method: flags.method?.toUpperCase(),
  rawFields: flags.rawField ?? [],
  typedFields: flags.field ?? [],
  headers: flags.header ?? [],
  paginate: flags.paginate === true,
  include: flags.include === true,
  input: flags.input,
  project: flags.project,
})

type Field = [key: string, value: unknown]

function splitField(text: string, flag: string): [string, string] {
  const at = text.indexOf('=')
  if (at <= 0) throw usageError(`invalid ${flag} '${text}': expected key=value`)
  return [text.slice(0, at), text.slice(at + 1)]
}

async function typedValue(value: string, deps: Deps): Promise<unknown> {
  if (value === 'true') return true
  if (value === 'false') return false
  if (value === 'null') return null
  if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value)
  if (value.startsWith('@')) return readSource(value.slice(1), deps)
  return value
}

const readSource = (file: string, deps: Deps) => (file === '-' ? deps.io.readStdin() : readFile(file, 'utf8'))

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** `labels[]=a` appends to an array, `author[name]=x` nests, `a[][k]=v` builds objects in an array (gh api, Rails). */
export function buildBody(fields: Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [key, value] of fields) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key)
    const parts = match ? [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [key]
    let node: Record<string, unknown> | unknown[] = body
    for (let i = 0; i < parts.length; i++) {
      const next = parts[i + 1]
      if (next === undefined) {
        if (Array.isArray(node)) node.push(value)
        else node[parts[i]] = value
        break
      }
      const fresh = (): Record<string, unknown> | unknown[] => (next === '' ? [] : {})
      if (Array.isArray(node)) {
        // `a[][b]=1 -f a[][c]=2` fill one object until a key repeats.
        const tail: unknown = node[node.length - 1]
        if (next !== '' && isRecord(tail) && !(next in tail)) node = tail
        else {
          const child = fresh()
          node.push(child)
          node = child
        }
      } else {
        const existing: unknown = node[parts[i]]
        node = isRecord(existing) || Array.isArray(existing) ? existing : (node[parts[i]] = fresh()) as Record<string, unknown> | unknown[]
      }
    }
  }
  return body
}

function head(response: ApiResponse): string {
  const lines = [`HTTP/1.1 ${response.status} ${response.statusText}`]
  for (const [name, value] of response.rawHeaders) lines.push(`${name}: ${value}`)
  return `${lines.join('\n')}\n\n`
}

async function target(options: ApiOptions, deps: Deps): Promise<{ api: ApiClient; path: string }> {
  const placeholder = /(^|\/):(id|fullpath)(?=\/|\?|$)/g
  if (!options.endpoint.match(placeholder)) return { api: await deps.api(), path: options.endpoint }
  const project = await deps.project(options.project)
  return { api: project.api, path: options.endpoint.replace(placeholder, (_, slash: string) => `${slash}${encodeRef(project.ref)}`) }
}

export async function run(options: ApiOptions, deps: Deps): Promise<void> {
  const fields: Field[] = options.rawFields.map((f) => splitField(f, '-f'))
  for (const f of options.typedFields) {
    const [key, value] = splitField(f, '-F')
    fields.push([key, await typedValue(value, deps)])
  }
  const method = options.method ?? (fields.length > 0 || options.input !== undefined ? 'POST' : 'GET')
  const headers: Record<string, string> = {}
  for (const h of options.headers) {
    const at = h.indexOf(':')
    if (at <= 0) throw usageError(`invalid header '${h}': expected 'Key: value'`)
    headers[h.slice(0, at).trim()] = h.slice(at + 1).trim()
  }

  const inQuery = method === 'GET' || method === 'HEAD' || options.input !== undefined
  const query = new URLSearchParams()
  if (inQuery) for (const [key, value] of fields) query.append(key, value === null ? '' : String(value))
  const { api, path } = await target(options, deps)
  if (options.paginate && !query.has('per_page') && !/[?&]per_page=/.test(path)) query.set('per_page', '100')
  const responses: ApiResponse[] = []
  for await (const response of api.pages(method, path, {
    query,
    headers,
    throwOnError: false,
    follow: options.paginate,
    body: options.input !== undefined ? await readSource(options.input, deps) : undefined,
    json: !inQuery && fields.length > 0 ? buildBody(fields) : undefined,
  })) {
    responses.push(response)
    if (options.include) deps.io.stdout.write(head(response) + (response.text ? `${response.text}\n` : ''))
  }
  const last = responses[responses.length - 1]
  if (!options.include) {
    const texts = responses.map((r) => r.text)
    const joined = texts.every((t) => t.trim().startsWith('[')) ? [joinJsonArrays(texts)] : texts
    for (const text of joined) printRaw(deps.io, text)
  }
  if (last.status >= 400) throw apiError(last)
}
