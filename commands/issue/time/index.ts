// collab issue time: estimate, spend, reset-estimate, reset-spent and stats, with GitLab's durations (`3h30m`, `1w 2d`).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printFields, printRaw, status } from '../../../src/cli/output.js'
import { parseJson } from '../../../src/client/http.js'
import { route } from '../../../src/client/paths.js'
import type { ResponseOf } from '../../../src/contract/routes.js'
import { onIssue } from '../shared.js'

type TimeStats = ResponseOf<'getIssueTimeStats'>

export interface TimeOptions { project?: string; iid: number; duration?: string; json: boolean }

type TimeEndpoint = 'setIssueTimeEstimate' | 'addIssueSpentTime' | 'resetIssueTimeEstimate' | 'resetIssueSpentTime' | 'getIssueTimeStats'

interface Verb { name: string; description: string; endpoint: TimeEndpoint; takesDuration?: boolean; done?: string }

const VERBS: Verb[] = [
  { name: 'estimate', description: 'Set the time estimate (e.g. 3h30m, 1w 2d)', endpoint: 'setIssueTimeEstimate', takesDuration: true, done: 'Set the estimate of' },
  { name: 'spend', description: 'Add time spent (a leading - subtracts)', endpoint: 'addIssueSpentTime', takesDuration: true, done: 'Added time spent on' },
  { name: 'reset-estimate', description: 'Remove the time estimate', endpoint: 'resetIssueTimeEstimate', done: 'Removed the estimate of' },
  { name: 'reset-spent', description: 'Remove all time spent', endpoint: 'resetIssueSpentTime', done: 'Removed the time spent on' },
  { name: 'stats', description: 'Show the time estimate and time spent', endpoint: 'getIssueTimeStats' },
]

export async function runTime(verb: Verb, options: TimeOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route(verb.endpoint, { id: ref, issue_iid: options.iid }), verb.takesDuration ? { json: { duration: options.duration } } : {})
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
