// A snippet's files from the request: `file_name` + `content` (or the older `code`), or `files[]` with GitLab's
// create and update actions, checked with Grape's wording before anything is written.
import { CollabError } from '../../../core/errors.js'
import type { SnippetFile } from '../../store/snippets.js'

export interface FileInput { file_path?: string; previous_path?: string; content?: string; action?: 'create' | 'update' | 'delete' | 'move' }
export interface ContentInput { file_name?: string; content?: string; code?: string; files?: FileInput[] }

/** Grape's `{"error": …}` answer to a parameter rule (presence, exclusivity, emptiness). */
export const paramError = (error: string) => new CollabError('SNIPPET_PARAMS', error, { status: 400, body: { error } })

/** GitLab's service errors on snippet writes: `{"message":{"error":…}}`. */
const serviceError = (error: string) => new CollabError('SNIPPET_INVALID', error, { status: 400, body: { message: { error } } })

/** GitLab names an unnamed file `snippetfile<N>.txt`. */
const defaultName = (n: number) => `snippetfile${n}.txt`

/** A path inside the snippet: relative, no `..` segment, no NUL or backslash (GitLab's file_path validator). */
function requirePath(path: string, param: string) {
  const parts = path.split('/')
  if (path.startsWith('/') || /[\0\\]/.test(path) || parts.some((p) => p === '..' || p === '.' || p === '')) {
    throw paramError(`${param} should be a valid file path`)
  }
}

const contentOf = (input: ContentInput) => input.content ?? input.code

function requireExclusive(input: ContentInput) {
  if (input.files === undefined) return
  if (contentOf(input) !== undefined) throw paramError('files, content are mutually exclusive')
  if (input.file_name !== undefined) throw paramError('files, file_name are mutually exclusive')
}

/** The files of a new snippet. */
export function filesToCreate(input: ContentInput): SnippetFile[] {
  requireExclusive(input)
  const content = contentOf(input)
  if (input.files === undefined) {
    if (content === undefined) throw paramError('files, content are missing, exactly one parameter must be provided')
    if (!content.trim()) throw paramError('content is empty')
    const path = input.file_name?.trim() || defaultName(1)
    requirePath(path, 'file_name')
    return [{ path, content }]
  }
  if (!input.files.length) throw paramError('files is empty')
  const files = input.files.map((f, i) => {
    if (!f.file_path?.trim()) throw paramError(`files[${i}][file_path] is empty`)
    if (!f.content?.trim()) throw paramError(`files[${i}][content] is empty`)
    requirePath(f.file_path, `files[${i}][file_path]`)
    return { path: f.file_path, content: f.content }
  })
  requireDistinct(files, 'creating')
  return files
}

function requireDistinct(files: SnippetFile[], verb: 'creating' | 'updating') {
  if (new Set(files.map((f) => f.path)).size !== files.length) throw serviceError(`Error ${verb} the snippet - A file with this name already exists`)
}

/** The files after an update, or undefined when the update leaves them alone. */
export function filesAfterUpdate(current: SnippetFile[], input: ContentInput): SnippetFile[] | undefined {
  requireExclusive(input)
  const content = contentOf(input)
  if (input.files === undefined) {
    if (content === undefined && input.file_name === undefined) return undefined
    if (current.length > 1) throw paramError('To update Snippets with multiple files, you must use the `files` parameter')
    if (content !== undefined && !content.trim()) throw paramError('content is empty')
    const path = input.file_name?.trim() || current[0]?.path || defaultName(1)
    requirePath(path, 'file_name')
    return [{ path, content: content ?? current[0]?.content ?? '' }]
  }
  let files = current.map((f) => ({ ...f }))
  input.files.forEach((f, i) => { files = applyAction(files, f, i) })
  if (!files.length) throw serviceError('Error updating the snippet - Snippet must have at least one file')
  requireDistinct(files, 'updating')
  return files
}

function applyAction(files: SnippetFile[], f: FileInput, i: number): SnippetFile[] {
  const path = f.file_path?.trim()
  const at = (p: string | undefined) => files.findIndex((x) => x.path === p)
  if (f.action === undefined) throw paramError(`files[${i}][action] is missing`)
  if (f.action !== 'move' && !path) throw paramError(`files[${i}][file_path] is missing`)
  if (path) requirePath(path, `files[${i}][file_path]`)
  const missing = () => serviceError('Error updating the snippet - A file with this name doesn\'t exist')
  switch (f.action) {
    case 'create':
      if (!f.content?.trim()) throw paramError(`files[${i}][content] is empty`)
      return [...files, { path: path!, content: f.content }]
    case 'update':
      if (f.content === undefined || !f.content.trim()) throw paramError(`files[${i}][content] is empty`)
      if (at(path) < 0) throw missing()
      return files.map((x) => (x.path === path ? { path: x.path, content: f.content! } : x))
    case 'delete':
      if (at(path) < 0) throw missing()
      return files.filter((x) => x.path !== path)
    case 'move': {
      if (!f.previous_path || at(f.previous_path) < 0) throw missing()
      const to = path || f.previous_path
      requirePath(to, `files[${i}][file_path]`)
      return files.map((x) => (x.path === f.previous_path ? { path: to, content: f.content ?? x.content } : x))
    }
  }
}
