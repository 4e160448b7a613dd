// A pipeline as a person reads it on a terminal (stages, then their jobs with coloured statuses), and as stable
// tab-separated lines for scripts.
import type { IO } from '../../src/cli/io.js'
import { printFields } from '../../src/cli/output.js'
import { stateStyle, terminalWidth, timeText } from '../../src/cli/terminal.js'
import { truncate } from '../../src/cli/text-width.js'
import type { Job, Pipeline } from './shared.js'

const ICONS: Record<string, string> = {
  success: '✓', failed: '✗', running: '●', pending: '○', created: '○', waiting_for_resource: '○', preparing: '○',
  canceled: '⊘', skipped: '»', manual: '▶', scheduled: '◷',
}

/** `12s`, `3m 05s`, `1h 02m`: how long a job ran. */
export function durationText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return ''
  const s = Math.round(seconds)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

/** A failed job that may fail shows as a warning, as GitLab draws it. */
function jobState(io: IO, job: Job): string {
  const icon = ICONS[job.status] ?? '?'
  if (job.status === 'failed' && job.allow_failure) return io.color.yellow(`! ${job.status} (allowed)`)
  // The icon takes the status word's colour.
  return stateStyle(io, job.status).replace(job.status, `${icon} ${job.status}`)
}

/** The terminal drawing: a heading line, the URL, then each stage and its jobs. */
export function drawPipeline(io: IO, p: Pipeline, jobs: Job[]): string {
  const c = io.color
  const width = terminalWidth(io)
  const when = timeText(io, p.created_at)
  const lines = [
    `${c.bold(`Pipeline #${p.id}`)}  ${stateStyle(io, p.status)}  ${p.ref} @ ${p.sha.slice(0, 8)}  ${c.dim(`(${p.source}, ${when})`)}`,
    c.dim(p.web_url),
  ]
  if (p.yaml_errors) lines.push(c.red(`yaml error: ${p.yaml_errors}`))
  const nameWidth = Math.min(Math.max(4, ...jobs.map((j) => j.name.length)), Math.max(10, width - 40))
  let stage: string | undefined
  for (const job of jobs) {
    if (job.stage !== stage) {
      stage = job.stage
      lines.push('', c.bold(stage))
    }
    const name = truncate(job.name, nameWidth).padEnd(nameWidth)
    const state = jobState(io, job)
    const plainState = `${ICONS[job.status] ?? '?'} ${job.status}${job.status === 'failed' && job.allow_failure ? ' (allowed)' : ''}`
    lines.push(`  ${name}  ${state}${' '.repeat(Math.max(1, 22 - plainState.length))}${durationText(job.duration).padStart(7)}  ${c.dim(`#${job.id}`)}`)
  }
  if (jobs.length === 0) lines.push('', c.dim('No jobs.'))
  return `${lines.join('\n')}\n`
}

/** Piped: the pipeline's fields as `label<TAB>value`, a `--` line, then `id stage name status duration allow_failure` per job. */
export function printPipelinePiped(io: IO, p: Pipeline, jobs: Job[]): void {
  printFields(io, [
    ['id', p.id], ['iid', p.iid], ['status', p.status], ['ref', p.ref], ['sha', p.sha], ['source', p.source],
    ['user', p.user?.username], ['created_at', p.created_at], ['started_at', p.started_at], ['finished_at', p.finished_at],
    ['duration', p.duration], ['yaml_errors', p.yaml_errors], ['web_url', p.web_url],
  ])
  io.stdout.write('--\n')
  for (const j of jobs) io.stdout.write(`${[j.id, j.stage, j.name, j.status, j.duration ?? '', j.allow_failure].join('\t')}\n`)
}
