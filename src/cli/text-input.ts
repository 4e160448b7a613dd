// Text a command takes from a flag, a file or stdin (`--description-file FILE`, `-` for stdin), and comma lists.
import { promises as fs } from 'node:fs'
import { usageError } from './errors.js'
import type { Deps } from './factory.js'

/** A file's text, or stdin's for `-`. */
export async function readText(deps: Deps, file: string): Promise<string> {
  if (file === '-') return deps.io.readStdin()
  try {
    return await fs.readFile(file, 'utf8')
  } catch (err) {
    throw usageError(`cannot read ${file}: ${(err as Error).message}`)
  }
}

export async function descriptionFrom(deps: Deps, text: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (text !== undefined && file !== undefined) throw usageError('--description and --description-file are mutually exclusive')
  return file !== undefined ? readText(deps, file) : text
}

/** Comma-separated values from repeated or CSV flags: `--label a --label b,c`. */
export const csv = (values: string[] | undefined) => values?.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
