// collab backup create [FILE]: the running server writes a consistent backup of the whole instance (an administrator's
// token), or with --data a stopped server's data directory is read here; written beside FILE and renamed when whole.
import { createWriteStream } from 'node:fs'
import { mkdir, open as openFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Command, OptionValues } from 'commander'
import { choice, withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { openBytes } from '../job/bytes.js'
import { progress, showsProgress } from '../job/transfer.js'
import { completeManifest, fileSink, printJson, seeing, size, summaryOf, watchArchive } from './archive.js'
import { COMPRESSIONS, compressionOf, compressor, extensionOf, type Compression } from './compression.js'

export interface CreateOptions {
  /** The archive to write; `-` is stdout; default collab-backup-<time>.tar in the current directory. */
  file?: string
  /** A stopped server's data directory, read here instead of asking a server. */
  data?: string
  compress?: Compression
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(withConnection(group.command('create')
    .description("Back up a collab serve instance into one archive: the running server's (an administrator's token), or with --data a stopped server's data directory")
    .argument('[file]', "the archive to write: .tar, .tar.gz (.tgz) or .tar.zst; '-' for stdout (default: collab-backup-<time>.tar)")
    .option('--data <dir>', "read this stopped server's data directory instead of asking the running server")
    .addOption(choice('--compress <kind>', 'compression, whatever the file name says (default: from the file name)', COMPRESSIONS))))
    .action((file: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(file, flags)))
}

export const toOptions = (file: string | undefined, flags: OptionValues): CreateOptions => ({
  file, data: flags.data, compress: flags.compress, json: flags.json === true,
})

/** collab-backup-20240102-030405.tar, in UTC. */
const defaultName = (now: Date, c: Compression) =>
  `collab-backup-${now.toISOString().slice(0, 19).replace(/-|:/g, '').replace('T', '-')}${extensionOf(c)}`

/** stream/promises' pipeline over a list built at run time. */
const pump = (streams: (Readable | Writable)[]) => (pipeline as unknown as (...args: unknown[]) => Promise<void>)(...streams)

async function open(options: CreateOptions, deps: Deps, now: Date): Promise<Readable> {
  if (options.data === undefined) return openBytes(await deps.api(), route('createBackup', {}))
  const { backupDataDirectory } = await import('../../src/server/backup.js')
  return backupDataDirectory(resolve(deps.io.cwd, options.data), () => now)
}

/** The plain archive from a server into `file`, written as it arrives (see fileSink). */
async function writePlain(steps: (Readable | Writable)[], file: string, see: (chunk: Buffer) => void) {
  const handle = await openFile(file, 'w', 0o600)
  try {
    await pump([...steps, fileSink(handle.fd, see)])
  } finally {
    await handle.close()
  }
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const { io } = deps
  if (options.file === '-' && options.json) throw usageError('--json prints to stdout, where the archive goes with -: give a file name')
  const now = new Date(io.now?.() ?? 0)
  const compression = options.compress ?? (options.file ? compressionOf(options.file) : 'none')
  const file = options.file === '-' ? '-' : resolve(io.cwd, options.file ?? defaultName(now, compression))
  const source = await open(options, deps, now)
  const { see, watched } = watchArchive()
  const steps: (Readable | Writable)[] = [source]
  if (showsProgress(io)) steps.push(progress(io, undefined))
  const squeeze = compressor(compression)
  const squeezed = squeeze ? [seeing(see), squeeze] : [seeing(see)]
  if (file === '-') {
    await pump([...steps, ...squeezed, new Writable({ write: (chunk: Buffer, _encoding, done) => done(void io.stdout.write(chunk)) })])
    completeManifest(watched)
    return
  }
  const partial = `${file}.partial`
  await mkdir(dirname(file), { recursive: true })
  try {
    // A stopped server's directory is read in this process, in 1 MB chunks hashed on this thread: there a stream's
    // writes, done on libuv's threads while the next chunk is hashed, finish sooner than writes made in turn with it.
    if (squeeze || options.data !== undefined) await pump([...steps, ...squeezed, createWriteStream(partial, { mode: 0o600 })])
    else await writePlain(steps, partial, see)
    const manifest = completeManifest(watched)
    await rename(partial, file)
    const summary = { file, bytes: (await stat(file)).size, compression, ...summaryOf(manifest) }
    if (options.json) return void printJson(io, summary)
    status(io, `Backed up ${summary.files} files (${size(summary.data_bytes)}, schema ${summary.schema_version}) into ${options.file ?? file} (${size(summary.bytes)})`)
  } finally {
    await rm(partial, { force: true })
  }
}
