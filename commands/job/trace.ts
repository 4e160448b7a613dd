// collab job trace <job>: a job's log; with --follow, what it appends as it runs (only the new bytes are asked for).
// Either way the exit code is the job's result (1 when it failed), and without colours (piped, NO_COLOR) the log's ANSI
// codes and section markers are left out.
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { status } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { EXIT_CODES_HELP, exitCodeOf, FINISHED, type Job } from '../pipeline/shared.js'
import { seconds } from '../pipeline/view.js'
import { bytesFrom } from './bytes.js'
import { onJob, resolveJob, type JobSelector } from './shared.js'

export interface TraceOptions extends JobSelector { job: string; follow: boolean; interval: number }

export function register(group: Command, rt: Runtime): void {
  const command = onJob(group.command('trace').alias('log').description("Print a job's log; with --follow, stream it until the job ends"))
    .option('-f, --follow', 'keep printing what the job writes until it finishes, then exit with its result')
    .option('--interval <seconds>', 'seconds between two polls with --follow', seconds, 1)
    .addHelpText('after', EXIT_CODES_HELP('job'))
  command.action((job: string, flags: OptionValues) => rt.invoke(command, run, toOptions(job, flags)))
}

export const toOptions = (job: string, flags: OptionValues): TraceOptions => ({
  project: flags.project, job, pipeline: flags.pipeline, ref: flags.ref, follow: flags.follow === true, interval: flags.interval,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const ENDINGS: Record<string, string> = { success: 'succeeded', failed: 'failed', canceled: 'was canceled', skipped: 'was skipped', manual: 'waits to be played' }

/**
 * The log as a terminal without colours should get it: CSI sequences (colours, erase-line) and GitLab's
 * `section_start:TIME:NAME[OPTIONS]\r` markers removed. A sequence cut by a chunk boundary waits for the next chunk.
 */
export function ansiStripper(): (chunk: Uint8Array | string, last?: boolean) => string {
  let held = ''
  const decoder = new TextDecoder()
  return (chunk, last = false) => {
    const text = held + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: !last }))
    const cut = last ? -1 : text.search(/(\x1b(\[[0-9;?]*)?|section_(start|end)?[:\w.\-[\],=]*)$/)
    held = cut >= 0 ? text.slice(cut) : ''
    return (cut >= 0 ? text.slice(0, cut) : text)
      .replace(/section_(?:start|end):\d+:[\w.-]+(?:\[[^\]\r\n]*\])?\r/g, '')
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
  }
}

export async function run(options: TraceOptions, deps: Deps): Promise<number> {
  const { api, project, id } = await resolveJob(deps, options)
  const trace = route('getJobTrace', { id: project, job_id: id })
  const strip = deps.io.colorLevel === 0 ? ansiStripper() : undefined
  const write = (chunk: Uint8Array, last = false) => {
    const out = strip ? strip(chunk, last) : chunk
    if (out.length > 0) deps.io.stdout.write(out)
  }
  let offset = 0
  let finished: Job | undefined
  for (;;) {
    const chunk = await bytesFrom(api, trace, offset)
    write(chunk, !options.follow)
    offset += chunk.length
    if (!options.follow) {
      // Without --follow the log is printed as it is now; the exit code still says whether the job failed.
      return exitCodeOf((await api.get(route('getJob', { id: project, job_id: id }))).status)
    }
    // After the job ended, read until nothing more comes: its last lines may have landed after the previous read.
    if (finished) {
      if (chunk.length === 0) break
      continue
    }
    if (chunk.length === 0) {
      const job = await api.get(route('getJob', { id: project, job_id: id }))
      if (FINISHED.has(job.status)) {
        finished = job
        continue
      }
    }
    await sleep(options.interval * 1000)
  }
  write(new Uint8Array(), true)
  const code = exitCodeOf(finished.status)
  const message = `Job #${id} (${finished.name}) ${ENDINGS[finished.status] ?? finished.status}`
  // status() marks every line with a green check on a terminal; a failed job gets a red cross instead.
  if (code === 0) status(deps.io, message)
  else deps.io.stderr.write(`${deps.io.stdoutIsTTY ? deps.io.color.red('✗ ') : ''}${message}\n`)
  return code
}
