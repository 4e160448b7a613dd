// collab job view <job>: one job's facts; its page in the browser with --web.
import type { Command, OptionValues } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printFields, printRaw } from '../../src/cli/output.js'
import { stateStyle, timeText } from '../../src/cli/terminal.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { durationText } from '../pipeline/draw.js'
import type { Job } from '../pipeline/shared.js'
import { onJob, resolveJob, type JobSelector } from './shared.js'

export interface ViewOptions extends JobSelector { job: string; web: boolean; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onJob(group.command('view').alias('show').description('Show a job: status, stage, timings, runner and artifacts')))
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
  command.action((job: string, flags: OptionValues) => rt.invoke(command, run, toOptions(job, flags)))
}

export const toOptions = (job: string, flags: OptionValues): ViewOptions => ({
  project: flags.project, job, pipeline: flags.pipeline, ref: flags.ref, web: flags.web === true, json: flags.json === true,
})

export async function run(options: ViewOptions, deps: Deps): Promise<void> {
  const { io } = deps
  const { api, project, id } = await resolveJob(deps, options)
  const response = await api.call(route('getJob', { id: project, job_id: id }))
  if (options.json) return printRaw(io, response.text)
  const j = parseJson<Job>(response)
  if (options.web) return openInBrowser(io, j.web_url)
  const archive = j.artifacts.find((a) => a.file_type === 'archive')
  printFields(io, [
    ['id', j.id],
    ['name', j.name],
    ['status', stateStyle(io, j.status)],
    ['stage', j.stage],
    ['ref', j.ref],
    ['sha', j.commit?.id],
    ['pipeline', j.pipeline.id],
    ['allow_failure', j.allow_failure],
    ['failure_reason', j.failure_reason],
    ['user', j.user?.username],
    ['runner', j.runner?.description],
    ['created_at', timeText(io, j.created_at)],
    ['started_at', timeText(io, j.started_at)],
    ['finished_at', timeText(io, j.finished_at)],
    ['duration', io.stdoutIsTTY ? durationText(j.duration) : j.duration],
    ['coverage', j.coverage],
    ['artifacts', archive ? `${archive.filename} (${archive.size} bytes)` : ''],
    ['artifacts_expire_at', timeText(io, j.artifacts_expire_at)],
    ['web_url', j.web_url],
  ])
}
