// What the pipeline and job verbs share: the contract's types, the branch a command means when it names none, the
// `[pipeline]` argument (an id, else the latest pipeline of the current branch) and the statuses that end a wait.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { stateStyle } from '../../src/cli/terminal.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'
import { COMPLETED_STATUSES } from '../../src/core/job-status.js'
import { currentBranch } from '../mr/git.js'

export type Pipeline = ResponseOf<'getPipeline'>
export type ListedPipeline = ResponseOf<'listPipelines'>[number]
export type Job = ResponseOf<'getJob'>

/** Statuses a pipeline or job does not leave without someone acting: waiting for them is over. */
export const FINISHED: ReadonlySet<string> = new Set([...COMPLETED_STATUSES, 'manual'])

/** Exit code of `pipeline view` and `job trace --follow`: 1 when it failed or was canceled, else 0. */
export const exitCodeOf = (status: string) => (status === 'failed' || status === 'canceled' ? 1 : 0)

export const EXIT_CODES_HELP = (what: string) => `
Exit codes:
  0  the ${what} succeeded, or has not failed (running, manual, skipped)
  1  the ${what} failed or was canceled, or the request failed
  2  usage: a missing or invalid argument
  4  authentication needed`

export const pipelineColumns = (io: IO): Column<ListedPipeline>[] => [
  { header: 'ID', value: (p) => p.id, style: (text) => io.color.dim(text) },
  { header: 'STATUS', value: (p) => p.status, style: (text) => stateStyle(io, text) },
  { header: 'REF', value: (p) => p.ref, flex: true },
  { header: 'SHA', value: (p) => p.sha.slice(0, 8) },
  { header: 'SOURCE', value: (p) => p.source },
  { header: 'CREATED', value: (p) => p.created_at, time: true, style: (text) => io.color.dim(text) },
]

/**
 * The branch a command means when given none: the CI job's (runners check out a detached HEAD), else the clone's.
 * `CI_COMMIT_REF_NAME` is a tag's name in a tag pipeline, which is also a ref the API takes.
 */
export async function defaultRef(io: IO): Promise<string | undefined> {
  return io.env.CI_COMMIT_REF_NAME || (await currentBranch(io))
}

/** The id of the newest pipeline of `ref` (or of the current branch). */
export async function latestPipelineId(deps: Deps, api: ApiClient, project: string, ref?: string): Promise<number> {
  const branch = ref ?? (await defaultRef(deps.io))
  if (branch === undefined) {
    throw usageError('no pipeline given, and the current directory is not on a git branch', 'pass a pipeline id, or --ref BRANCH')
  }
  const page = await api.list(route('listPipelines', { id: project }), { ref: branch, per_page: 1, order_by: 'id', sort: 'desc' })
  if (page.items.length === 0) throw failure(`no pipeline on '${branch}' in ${project}`, "see 'collab pipeline list', or start one with 'collab pipeline run'")
  return page.items[0].id
}

export interface PipelineTarget {
  api: ApiClient
  /** The project's id or path, not encoded. */
  project: string
  id: number
}

export function parseId(value: string, what: string): number {
  const m = /^#?(\d+)$/.exec(value.trim())
  if (!m || Number(m[1]) < 1) throw usageError(`invalid ${what} '${value}': expected a numeric id`)
  return Number(m[1])
}

export async function resolvePipeline(deps: Deps, options: { project?: string; pipeline?: string; ref?: string }): Promise<PipelineTarget> {
  const id = options.pipeline === undefined ? undefined : parseId(options.pipeline, 'pipeline')
  const { api, ref: project } = await deps.project(options.project)
  return { api, project, id: id ?? (await latestPipelineId(deps, api, project, options.ref)) }
}

/** `[pipeline]` plus --ref, -p, --host, --token: a verb on one pipeline. */
export function onPipeline(command: Command): Command {
  command
    .argument('[pipeline]', 'the pipeline id (default: the latest pipeline of the current branch)')
    .option('-r, --ref <ref>', 'without an id, the latest pipeline of this branch or tag instead of the current branch')
  return withProject(withConnection(command))
}

/**
 * The latest try of each job of a pipeline, in stage order, then in the order they were created. Retried tries are
 * asked for too: a retried job is newer than the later stages' jobs, so only its first try tells where its stage goes.
 */
export async function pipelineJobs(api: ApiClient, project: string, pipeline: number): Promise<Job[]> {
  const query = { per_page: 100, include_retried: true }
  const page = await api.list(route('listPipelineJobs', { id: project, pipeline_id: pipeline }), query, { all: true })
  const tries = [...page.items].sort((a, b) => a.id - b.id)
  const stages = [...new Set(tries.map((j) => j.stage))]
  const latest = new Map<string, Job>()
  for (const job of tries) latest.set(job.name, job)
  return [...latest.values()].sort((a, b) => stages.indexOf(a.stage) - stages.indexOf(b.stage) || a.id - b.id)
}

/** The statuses `--status` takes (the API's list, spelled out here: the CLI bundle carries no contract values). */
export const PIPELINE_STATUSES_CLI = [
  'created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled',
] as const
