// collab backup restore FILE --data DIR: makes a new data directory from a backup, without asking: DIR absent or empty.
// The archive is checked whole (paths, checksums, the database's integrity, its schema) before DIR is touched.
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { pipeline, type Readable, type Writable } from 'node:stream'
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { progress, showsProgress } from '../job/transfer.js'
import { printJson, size } from './archive.js'
import { decompressor, sniffCompression } from './compression.js'

export interface RestoreOptions {
  file: string
  data?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(group.command('restore')
    .description('Make a new data directory for collab serve from a backup (DIR absent or empty; nothing is asked)')
    .argument('<file>', 'the archive collab backup create wrote (.tar, .tar.gz or .tar.zst: recognised by its content)')
    .option('--data <dir>', 'the data directory to make (then: collab serve --data DIR)'))
    .action((file: string, flags: OptionValues) => rt.invoke(command, run, toOptions(file, flags)))
}

export const toOptions = (file: string, flags: OptionValues): RestoreOptions => ({ file, data: flags.data, json: flags.json === true })

/** The archive's tar bytes: read, counted on a terminal, decompressed as its first bytes say. */
async function tarOf(io: Deps['io'], file: string): Promise<Readable> {
  const total = await stat(file).then((s) => (s.isFile() ? s.size : null), () => null)
  if (total === null) throw failure(`cannot read ${file}: no such file`)
  const steps: (Readable | Writable)[] = [createReadStream(file, { highWaterMark: 1024 * 1024 })]
  if (showsProgress(io)) steps.push(progress(io, total))
  const inflate = decompressor(await sniffCompression(file))
  if (inflate) steps.push(inflate)
  if (steps.length === 1) return steps[0] as Readable
  // The callback form hands back the last stream; a failure anywhere destroys it with the error, which the restore sees.
  return pipeline(steps as [Readable, ...Writable[]], () => undefined) as unknown as Readable
}

export async function run(options: RestoreOptions, deps: Deps): Promise<void> {
  const { io } = deps
  if (options.data === undefined) throw usageError('--data DIR is required: the data directory to make')
  const file = resolve(io.cwd, options.file)
  const dir = resolve(io.cwd, options.data)
  const { restoreBackup } = await import('../../src/server/backup.js')
  let summary
  try {
    summary = await restoreBackup(await tarOf(io, file), dir)
  } catch (err) {
    // The backup bundle has its own copy of CollabError: the code says what it is.
    if ((err as { code?: unknown }).code === 'FAILED') throw failure(`cannot restore ${options.file}: ${(err as Error).message}; ${options.data} was left as it was`)
    throw err
  }
  if (options.json) return void printJson(io, { file, ...summary })
  status(io, `Restored ${summary.files} files (${size(summary.bytes)}, schema ${summary.schema_version}, made ${summary.created_at}) into ${options.data}`)
  status(io, `start it with: collab serve --data ${options.data}`)
}
