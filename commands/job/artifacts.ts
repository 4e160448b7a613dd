// collab job artifacts download [job] | --job NAME [--ref REF]: a job's artifacts extracted here (or --zip saved, or one
// file with --path), streamed to disk with a progress bar on a terminal. Works with nothing but a CI job's environment.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import type { ApiClient } from '../../src/client/http.js'
import { encodeRef, route, type Route } from '../../src/client/paths.js'
import { completeWith } from '../complete.js'
import { defaultRef } from '../pipeline/shared.js'
import { openBytes } from './bytes.js'
import { jobCandidates } from './complete.js'
import { resolveJob, withJobLookup, type JobSelector } from './shared.js'
import { extractZip, saveTo } from './transfer.js'

export interface DownloadOptions extends JobSelector {
  /** By name from the latest successful pipeline of --ref (GitLab's by-ref endpoints), instead of a job. */
  name?: string
  path?: string
  output?: string
  zip: boolean
}

export function register(group: Command, rt: Runtime): void {
  const artifacts = group.command('artifacts').alias('artifact').description("Download a job's artifacts")
  const command = artifacts
    .command('download')
    .description("Download a job's artifacts and extract them (default: into the current directory)")
    .argument('[job]', 'the job: its id, or its name in the latest pipeline of the current branch (or --pipeline, --ref)')
    .option('--job <name>', 'the job of this name in the latest successful pipeline of --ref (or of the current branch)')
    .option('--path <file>', 'only this file of the artifacts')
    .option('-o, --output <path>', "where to: a directory to extract into, or with --zip or --path a file ('-' is stdout)")
    .option('--zip', 'save the zip archive instead of extracting it (default file: artifacts.zip)')
  completeWith(command.registeredArguments[0], jobCandidates)
  withProject(withConnection(withJobLookup(command))).action((job: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(job, flags)))
}

export const toOptions = (job: string | undefined, flags: OptionValues): DownloadOptions => ({
  project: flags.project, job, pipeline: flags.pipeline, ref: flags.ref, name: flags.job, path: flags.path, output: flags.output, zip: flags.zip === true,
})

/** An artifact path keeps its slashes (`…/raw/dist/app.js`), as GitLab's wildcard route and Workhorse expect. */
function filePath(r: Route, path: string): Route {
  return { ...r, path: r.path.slice(0, -encodeRef(path).length) + path.split('/').map(encodeURIComponent).join('/') }
}

/** The route of what to download: the archive or one file, of a job or of the named job of a ref's latest success. */
async function source(deps: Deps, options: DownloadOptions): Promise<{ api: ApiClient; route: Route; query?: { job: string }; what: string }> {
  if (options.name !== undefined) {
    if (options.job !== undefined) throw usageError('pass a job argument or --job NAME, not both')
    if (options.pipeline !== undefined) throw usageError('--job looks in the latest successful pipeline of --ref; --pipeline needs a job argument')
    const { api, ref: project } = await deps.project(options.project)
    const ref = options.ref ?? (await defaultRef(deps.io))
    if (ref === undefined) throw usageError('--job needs --ref: the current directory is not on a git branch')
    const route_ = options.path === undefined
      ? route('downloadRefArtifacts', { id: project, ref_name: ref })
      : filePath(route('getRefArtifactFile', { id: project, ref_name: ref, artifact_path: options.path }), options.path)
    return { api, route: route_, query: { job: options.name }, what: `job '${options.name}' of ${ref} in ${project}` }
  }
  if (options.job === undefined) throw usageError('no job given', "pass a job id or name, or --job NAME (with --ref)")
  const { api, project, id } = await resolveJob(deps, { ...options, job: options.job })
  const route_ = options.path === undefined
    ? route('downloadJobArtifacts', { id: project, job_id: id })
    : filePath(route('getJobArtifactFile', { id: project, job_id: id, artifact_path: options.path }), options.path)
  return { api, route: route_, what: `job #${id} in ${project}` }
}

export async function run(options: DownloadOptions, deps: Deps): Promise<void> {
  const { io } = deps
  if (options.path !== undefined && options.zip) throw usageError('--path saves one file; --zip the whole archive: pass one of them')
  const from = await source(deps, options)
  const res = await openBytes(from.api, from.route, { query: from.query })
  const total = Number(res.headers['content-length']) || undefined
  if (options.path !== undefined || options.zip) {
    const output = options.output ?? (options.zip ? 'artifacts.zip' : basename(options.path!))
    const file = output === '-' ? '-' : resolve(io.cwd, output)
    await saveTo(io, res, file, total)
    if (file !== '-') status(io, `Saved ${options.path ?? 'the artifacts archive'} of ${from.what} to ${output}`)
    return
  }
  const dir = resolve(io.cwd, options.output ?? '.')
  const temp = await mkdtemp(join(tmpdir(), 'collab-artifacts-'))
  try {
    const zip = join(temp, 'artifacts.zip')
    await saveTo(io, res, zip, total)
    const files = await extractZip(zip, dir)
    status(io, `Extracted ${files.length} file${files.length === 1 ? '' : 's'} from the artifacts of ${from.what} into ${options.output ?? '.'}`)
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}
