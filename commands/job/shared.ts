// What the job verbs share: list columns, and the `[job]` argument (an id, or a name within a pipeline: --pipeline,
// else the latest pipeline of --ref or of the current branch) resolved to a project and a job id.
import type { Command } from 'commander'
import { withConnection, withProject } from '../../src/cli/command.js'
import { failure } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import type { IO } from '../../src/cli/io.js'
import type { Column } from '../../src/cli/output.js'
import { stateStyle } from '../../src/cli/terminal.js'
import type { ApiClient } from '../../src/client/http.js'
import { completeWith } from '../complete.js'
import { durationText } from '../pipeline/draw.js'
import { latestPipelineId, parseId, pipelineJobs, type Job } from '../pipeline/shared.js'
import { jobCandidates } from './complete.js'

export const jobColumns = (io: IO): Column<Job>[] => [
  { header: 'ID', value: (j) => j.id, style: (text) => io.color.dim(text) },
  { header: 'STATUS', value: (j) => j.status, style: (text) => stateStyle(io, text) },
  { header: 'STAGE', value: (j) => j.stage },
  { header: 'NAME', value: (j) => j.name, style: (text) => io.color.bold(text), flex: true },
  { header: 'REF', value: (j) => j.ref },
  { header: 'PIPELINE', value: (j) => j.pipeline.id },
  { header: 'DURATION', value: (j) => (io.stdoutIsTTY ? durationText(j.duration) : j.duration) },
  { header: 'CREATED', value: (j) => j.created_at, time: true, style: (text) => io.color.dim(text) },
]

export interface JobSelector {
  project?: string
  /** An id, or a job name. */
  job?: string
  pipeline?: string
  ref?: string
}

/** --pipeline and --ref: where a job name is looked up. */
export const withJobLookup = (command: Command) =>
  command
    .option('--pipeline <id>', 'look a job name up in this pipeline (default: the latest pipeline of the current branch)')
    .option('-r, --ref <ref>', 'look a job name up in the latest pipeline of this branch or tag')

/** `<job>` (or `[job]`) plus --pipeline, --ref, -p, --host, --token: a verb on one job. */
export function onJob(command: Command, required = true): Command {
  command.argument(required ? '<job>' : '[job]', 'the job: its id, or its name in the latest pipeline of the current branch (or --pipeline, --ref)')
  completeWith(command.registeredArguments[command.registeredArguments.length - 1], jobCandidates)
  return withProject(withConnection(withJobLookup(command)))
}

export interface JobTarget {
  api: ApiClient
  /** The project's id or path, not encoded. */
  project: string
  id: number
}

/** The job a selector names; a name is the latest try of that job in the pipeline. */
export async function resolveJob(deps: Deps, selector: JobSelector & { job: string }): Promise<JobTarget> {
  const { api, ref: project } = await deps.project(selector.project)
  if (/^#?\d+$/.test(selector.job.trim())) return { api, project, id: parseId(selector.job, 'job') }
  const pipeline = selector.pipeline === undefined
    ? await latestPipelineId(deps, api, project, selector.ref)
    : parseId(selector.pipeline, 'pipeline')
  const jobs = await pipelineJobs(api, project, pipeline)
  const job = jobs.find((j) => j.name === selector.job)
  if (!job) {
    const names = jobs.map((j) => j.name).join(', ')
    throw failure(`pipeline #${pipeline} of ${project} has no job named '${selector.job}'`, names ? `its jobs: ${names}` : 'it has no jobs')
  }
  return { api, project, id: job.id }
}
