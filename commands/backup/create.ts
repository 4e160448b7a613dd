// collab backup create [FILE]: the running server writes a consistent backup of the whole instance (an administrator's
// token), or with --data a stopped server's data directory is read here; written beside FILE and renamed when whole.
// A plain .tar from a server on this machine is stored by the server and moved here when its file is visible
// (./stored.ts); a compressed archive, stdout or a server elsewhere sends the bytes over HTTP.
import { createWriteStream } from 'node:fs'
import { mkdir, open as openFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { Writable, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Command, OptionValues } from 'commander'
import { choice, withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import { backupStamp } from '../../src/core/backup-names.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import type { ApiClient } from '../../src/client/http.js'
import { openBytes } from '../job/bytes.js'
import { progress, showsProgress } from '../job/transfer.js'
import { completeManifest, printJson, seeing, size, summaryOf, watchArchive } from './archive.js'
import { COMPRESSIONS, compressionOf, compressor, extensionOf, type Compression } from './compression.js'
import { receivable, receiveInto } from './receive.js'
import { sameMachine, takeStoredBackup, type StoredSummary } from './stored.js'

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
const defaultName = (now: Date, c: Compression) => `collab-backup-${backupStamp(now)}${extensionOf(c)}`

/** stream/promises' pipeline over a list built at run time. */
const pump = (streams: (Readable | Writable)[]) => (pipeline as unknown as (...args: unknown[]) => Promise<void>)(...streams)

/** The archive's bytes as a stream: from the server (`api`), or read here from a stopped server's directory. */
async function open(options: CreateOptions, deps: Deps, now: Date, api: ApiClient | null): Promise<Readable> {
  if (api) return openBytes(api, route('createBackup', {}))
  const { backupDataDirectory } = await import('../../src/server/backup.js')
  return backupDataDirectory(resolve(deps.io.cwd, options.data!), () => now)
}

/** `see` each chunk and write the archive into `file` (made 0600), or to stdout when `file` is null. */
async function write(options: CreateOptions, deps: Deps, now: Date, compression: Compression, file: string | null, see: (chunk: Buffer) => void) {
  const { io } = deps
  const api = options.data === undefined ? await deps.api() : null
  const squeeze = compressor(compression)
  // A plain file with no progress bar: written straight from the socket (a server elsewhere) or from the data directory,
  // no stream between. (A plain file from a server on this machine is the server's own file: see ./stored.ts.)
  if (file && !squeeze && !showsProgress(io) && (!api || receivable(api))) {
    const handle = await openFile(file, 'w', 0o600)
    try {
      if (api) return await receiveInto(api, route('createBackup', {}), handle.fd, see)
      const { writeDataDirectoryBackup } = await import('../../src/server/backup.js')
      return await writeDataDirectoryBackup(resolve(io.cwd, options.data!), () => now, handle.fd, see)
    } finally {
      await handle.close()
    }
  }
  const steps: (Readable | Writable)[] = [await open(options, deps, now, api)]
  if (showsProgress(io)) steps.push(progress(io, undefined))
  steps.push(seeing(see))
  if (squeeze) steps.push(squeeze)
  if (!file) return pump([...steps, new Writable({ write: (chunk: Buffer, _encoding, done) => done(void io.stdout.write(chunk)) })])
  return pump([...steps, createWriteStream(file, { mode: 0o600 })])
}

export async function run(options: CreateOptions, deps: Deps): Promise<void> {
  const { io } = deps
  if (options.file === '-' && options.json) throw usageError('--json prints to stdout, where the archive goes with -: give a file name')
  const now = new Date(io.now?.() ?? 0)
  const compression = options.compress ?? (options.file ? compressionOf(options.file) : 'none')
  const file = options.file === '-' ? '-' : resolve(io.cwd, options.file ?? defaultName(now, compression))
  const { see, watched } = watchArchive()
  if (file === '-') {
    await write(options, deps, now, compression, null, see)
    completeManifest(watched)
    return
  }
  const partial = `${file}.partial`
  await mkdir(dirname(file), { recursive: true })
  try {
    let facts: ReturnType<typeof summaryOf> & { transfer?: StoredSummary['transfer'] | 'streamed' }
    const api = options.data === undefined && compression === 'none' ? await deps.api() : null
    if (api && sameMachine(api.host)) facts = await takeStoredBackup(io, api, partial)
    else {
      await write(options, deps, now, compression, partial, see)
      facts = { ...summaryOf(completeManifest(watched)), ...(options.data === undefined ? { transfer: 'streamed' as const } : {}) }
    }
    await rename(partial, file)
    const summary = { file, bytes: (await stat(file)).size, compression, ...facts }
    if (options.json) return void printJson(io, summary)
    status(io, `Backed up ${summary.files} files (${size(summary.data_bytes)}, schema ${summary.schema_version}) into ${options.file ?? file} (${size(summary.bytes)})`)
  } finally {
    // Best effort: a failure to remove it (a directory in the way) must not hide the one that stopped the backup.
    await rm(partial, { force: true }).catch(() => undefined)
  }
}
