// `<kind> time`: estimate, spend, reset-estimate, reset-spent and stats, with GitLab's durations (`3h30m`, `1w 2d`).
import { InvalidArgumentError, type Command, type OptionValues } from 'commander'
import { parseTimeSpent } from '../../core/durations.js'
import { parseJson } from '../../client/http.js'
import type { ResponseOf } from '../../contract/routes.js'
import { withJson, type Runtime } from '../command.js'
import type { Deps } from '../factory.js'
import { printFields, printRaw, status } from '../output.js'
import { onTarget, reference, routeOn, targetAction, type IssuableKind, type TargetOptions } from './kind.js'

type TimeStats = ResponseOf<'getIssueTimeStats'>

export interface TimeOptions extends TargetOptions { duration?: string; summary?: string; json: boolean }

interface TimeVerb { name: keyof IssuableKind['endpoints']['time']; description: string; takesDuration?: boolean; done?: string }

/** In help order. */
const TIME_VERBS: TimeVerb[] = [
  { name: 'estimate', description: 'Set the time estimate (e.g. 3h30m, 1w 2d)', takesDuration: true, done: 'Set the estimate of' },
  { name: 'spend', description: 'Add time spent (a leading - subtracts)', takesDuration: true, done: 'Added time spent on' },
  { name: 'reset-estimate', description: 'Remove the time estimate', done: 'Removed the estimate of' },
  { name: 'reset-spent', description: 'Remove all time spent', done: 'Removed the time spent on' },
  { name: 'stats', description: 'Show the time estimate and time spent' },
]

/** Checked here, before any request: GitLab answers a bad duration with a bare `{"time_spent":["has an invalid format"]}`. */
export function durationArg(value: string): string {
  if (parseTimeSpent(value) === null) throw new InvalidArgumentError('expected a duration such as 3h30m, 1.5h or 1w 2d (mo, w, d, h, m), or -30m to subtract')
  return value
}

/** The stats the API answered (or its JSON), then what was done, on stderr. */
export async function runTime(kind: IssuableKind, verb: TimeVerb, options: TimeOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  const json = verb.takesDuration ? { duration: options.duration, summary: options.summary } : undefined
  const response = await target.api.call(routeOn(kind, kind.endpoints.time[verb.name], target), { json })
  if (options.json) printRaw(deps.io, response.text)
  else {
    const t = parseJson<TimeStats>(response)
    printFields(deps.io, [['estimate', t.human_time_estimate], ['spent', t.human_total_time_spent], ['estimate_seconds', t.time_estimate], ['spent_seconds', t.total_time_spent]])
  }
  if (verb.done) status(deps.io, `${verb.done} ${kind.noun} ${reference(kind, target)}`)
}

export function registerTime(group: Command, rt: Runtime, kind: IssuableKind): void {
  const time = group.command('time').description(`Track time on ${kind.a}: estimate, spend, reset-estimate, reset-spent, stats`)
  for (const verb of TIME_VERBS) {
    const command = withJson(onTarget(kind, time.command(verb.name).description(verb.description), (c) => {
      if (verb.takesDuration) c.argument('<duration>', 'a duration such as 3h30m, 1.5h, 1w 2d (mo, w, d, h, m); -30m subtracts', durationArg)
      if (verb.name === 'spend' && kind.spendSummary) c.option('--summary <text>', 'what the time was spent on')
    }))
    targetAction(kind, command, (target, args, flags: OptionValues) => rt.invoke(command, (o: TimeOptions, deps: Deps) => runTime(kind, verb, o, deps), {
      ...target, duration: args[0] as string | undefined, summary: flags.summary, json: flags.json === true,
    }))
  }
}
