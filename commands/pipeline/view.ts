// collab pipeline view [pipeline] (also `status`, as glab's ci status): the pipeline's stages and jobs; with --watch
// (--live), redrawn until it finishes; the exit code is its result.
import type { Command, OptionValues } from 'commander'
import { InvalidArgumentError } from 'commander'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../../src/cli/browser.js'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { displayWidth } from '../../src/cli/text-width.js'
import { terminalWidth } from '../../src/cli/terminal.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { drawPipeline, printPipelinePiped } from './draw.js'
import { EXIT_CODES_HELP, exitCodeOf, FINISHED, onPipeline, pipelineJobs, resolvePipeline, type Pipeline, type PipelineTarget } from './shared.js'

export interface ViewOptions {
  project?: string
  pipeline?: string
  ref?: string
  watch: boolean
  /** Seconds between two polls of --watch. */
  interval: number
  web: boolean
  json: boolean
}

/** `--interval 0.5`: a poll period in seconds, at least 0.05. */
export function seconds(value: string): number {
  const n = Number(value)
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n < 0.05) throw new InvalidArgumentError('expected a number of seconds (at least 0.05)')
  return n
}

export function register(group: Command, rt: Runtime): void {
  const command = withJson(onPipeline(group.command('view').aliases(['show', 'status']).description('Show a pipeline: its stages and jobs with their statuses')))
    .option('-w, --watch', 'redraw until the pipeline finishes (piped: wait, then print once); the exit code is its result')
    .option('--live', "glab's name for --watch (collab pipeline status --live)")
    .option('--interval <seconds>', 'seconds between two polls with --watch', seconds, 3)
    .option('--web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
    .addHelpText('after', `
Piped output: the pipeline's fields as label<TAB>value lines, a '--' line, then one line per job:
id, stage, name, status, duration (seconds), allow_failure.
${EXIT_CODES_HELP('pipeline')}`)
  command.action((pipeline: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(pipeline, flags)))
}

export const toOptions = (pipeline: string | undefined, flags: OptionValues): ViewOptions => ({
  project: flags.project, pipeline, ref: flags.ref, watch: flags.watch === true || flags.live === true, interval: flags.interval, web: flags.web === true, json: flags.json === true,
})

/** Screen rows a frame takes: a line wider than the terminal wraps, and the next redraw must climb over it too. */
export function rowsOf(frame: string, width: number): number {
  const lines = frame.replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, -1)
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil(displayWidth(line) / width)), 0)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function fetchPipeline(target: PipelineTarget) {
  const response = await target.api.call(route('getPipeline', { id: target.project, pipeline_id: target.id }))
  return { response, pipeline: parseJson<Pipeline>(response) }
}

export async function run(options: ViewOptions, deps: Deps): Promise<number> {
  const { io } = deps
  const target = await resolvePipeline(deps, options)
  let { response, pipeline } = await fetchPipeline(target)
  if (options.web) {
    await openInBrowser(io, pipeline.web_url)
    return 0
  }
  const live = options.watch && io.stdoutIsTTY && !options.json
  let drawn = 0
  for (;;) {
    const done = !options.watch || FINISHED.has(pipeline.status)
    if (live) {
      const frame = drawPipeline(io, pipeline, await pipelineJobs(target.api, target.project, target.id))
      // Back to the first line of the previous frame, then clear to the end of the screen.
      io.stdout.write(`${drawn > 0 ? `\x1b[${drawn}F\x1b[J` : ''}${frame}`)
      drawn = rowsOf(frame, terminalWidth(io))
    }
    if (done) break
    await sleep(options.interval * 1000)
    ;({ response, pipeline } = await fetchPipeline(target))
  }
  if (options.json) printRaw(io, response.text)
  else if (!live) {
    const jobs = await pipelineJobs(target.api, target.project, target.id)
    if (io.stdoutIsTTY) io.stdout.write(drawPipeline(io, pipeline, jobs))
    else printPipelinePiped(io, pipeline, jobs)
  }
  return exitCodeOf(pipeline.status)
}
