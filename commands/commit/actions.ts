// The file actions of `collab commit create`: flags parsed in the order given, an actions file, and local contents encoded.
import { InvalidArgumentError } from 'commander'
import { usageError } from '../../src/cli/errors.js'
import type { IO } from '../../src/cli/io.js'
import { encodeContent, readBytes, readText } from '../../src/cli/sources.js'

export type ActionFlag =
  /** `source` is the local file whose bytes become the content. */
  | { action: 'create' | 'update'; file_path: string; source: string }
  | { action: 'delete'; file_path: string }
  | { action: 'move'; previous_path: string; file_path: string }
  | { action: 'chmod'; file_path: string; execute_filemode: boolean }

export type ActionKind = ActionFlag['action']

/** One element of the API's `actions` array. */
export type Action = Record<string, unknown> & { action: string; file_path: string }

function nonEmpty(text: string, what: string): string {
  if (text === '') throw new InvalidArgumentError(`expected ${what}`)
  return text
}

/** `path=localfile`, or `path` alone for a local file of the same name. */
function contentSpec(action: 'create' | 'update', value: string): ActionFlag {
  const at = value.indexOf('=')
  if (at < 0) return { action, file_path: nonEmpty(value, 'path=localfile'), source: value }
  return { action, file_path: nonEmpty(value.slice(0, at), 'path=localfile'), source: nonEmpty(value.slice(at + 1), 'path=localfile') }
}

export function parseActionFlag(kind: ActionKind, value: string): ActionFlag {
  switch (kind) {
    case 'create':
    case 'update':
      return contentSpec(kind, value)
    case 'delete':
      return { action: 'delete', file_path: nonEmpty(value, 'a path') }
    case 'move': {
      const at = value.indexOf(':')
      if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError('expected old:new')
      return { action: 'move', previous_path: value.slice(0, at), file_path: value.slice(at + 1) }
    }
    case 'chmod': {
      const match = /^(.+)=([+-])x$/.exec(value)
      if (!match) throw new InvalidArgumentError('expected path=+x or path=-x')
      return { action: 'chmod', file_path: match[1], execute_filemode: match[2] === '+' }
    }
  }
}

/**
 * commander keeps one value per option, so `--create a --delete b --create c` would lose its order. Every action
 * flag's parser appends to this one list instead (a fresh list per registered command, so per command line).
 */
export function orderedActionParsers(): { list: ActionFlag[]; parser(kind: ActionKind): (value: string) => ActionFlag[] } {
  const list: ActionFlag[] = []
  return {
    list,
    parser: (kind) => (value) => {
      list.push(parseActionFlag(kind, value))
      return list
    },
  }
}

/** GitLab's own format: an `actions` array, or a whole POST …/commits body holding one. */
export async function readActionsFile(file: string, io: IO): Promise<Action[]> {
  const text = await readText(file, '--actions-file', io)
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw usageError(`--actions-file: ${file === '-' ? 'stdin' : `'${file}'`} is not JSON: ${(err as Error).message}`)
  }
  const actions = Array.isArray(data) ? data : (data as { actions?: unknown } | null)?.actions
  const valid = Array.isArray(actions) && actions.every((a) => a !== null && typeof a === 'object' && !Array.isArray(a))
  if (!valid) throw usageError('--actions-file: expected a JSON array of actions, or an object with an "actions" array')
  return actions as Action[]
}

/** A flag becomes an API action; contents are read now, as text when they are UTF-8 and base64 otherwise. */
export async function toAction(flag: ActionFlag, io: IO): Promise<Action> {
  if (flag.action !== 'create' && flag.action !== 'update') return { ...flag }
  const { source, ...rest } = flag
  return { ...rest, ...encodeContent(await readBytes(source, `--${flag.action}`, io)) }
}
