// collab issue time: estimate, spend, reset-estimate, reset-spent and stats, with GitLab's durations (`3h30m`, `1w 2d`).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printFields, printRaw, status } from '../../../src/cli/output.js'
import { parseJson } from '../../../src/client/http.js'
import { issuePath, onIssue } from '../shared.js'

interface TimeStats { time_estimate: number; total_time_spent: number; human_time_estimate: string | null; human_total_time_spent: string | null }

export interface TimeOptions { project?: string; iid: number; duration?: string; json: boolean }

interface Verb { name: string; description: string; endpoint: string; method: 'GET' | 'POST'; takesDuration?: boolean; done?: string }

const VERBS: Verb[] = [
  { name: 'estimate', description: 'Set the time estimate (e.g. 3h30m, 1w 2d)', endpoint: 'time_estimate', method: 'POST', takesDuration: true, done: 'Set the estimate of' },
  { name: 'spend', description: 'Add time spent (a leading - subtracts)', endpoint: 'add_spent_time', method: 'POST', takesDuration: true, done: 'Added time spent on' },
  { name: 'reset-estimate', description: 'Remove the time estimate', endpoint: 'reset_time_estimate', method: 'POST', done: 'Removed the estimate of' },
  { name: 'reset-spent', description: 'Remove all time spent', endpoint: 'reset_spent_time', method: 'POST', done: 'Removed the time spent on' },
  { name: 'stats', description: 'Show the time estimate and time spent', endpoint: 'time_stats', method: 'GET' },
]

export async function runTime(verb: Verb, options: TimeOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.request(verb.method, issuePath(ref, options.iid, verb.endpoint), verb.takesDuration ? { json: { duration: options.duration } } : {})
  if (options.json) printRaw(deps.io, response.text)
  else {
    const t = parseJson<TimeStats>(response)
    printFields(deps.io, [['estimate', t.human_time_estimate], ['spent', t.human_total_time_spent], ['estimate_seconds', t.time_estimate], ['spent_seconds', t.total_time_spent]])
  }
  if (verb.done) status(deps.io, `${verb.done} issue #${options.iid} in ${ref}`)
}

export function register(group: Command, rt: Runtime): void {
  const time = group.command('time').description('Track time on an issue: estimate, spend, reset-estimate, reset-spent, stats')
  for (const verb of VERBS) {
    let command = withJson(onIssue(time.command(verb.name).description(verb.description)))
    if (verb.takesDuration) command = command.argument('<duration>', 'a duration such as 3h30m, 1.5h, 1w 2d (mo, w, d, h, m)')
    command.action((iid: number, ...rest: unknown[]) => {
      const flags = rest[verb.takesDuration ? 1 : 0] as OptionValues
      const options: TimeOptions = { project: flags.project, iid, duration: verb.takesDuration ? String(rest[0]) : undefined, json: flags.json === true }
      return rt.invoke(command, (o: TimeOptions, deps: Deps) => runTime(verb, o, deps), options)
    })
  }
}
