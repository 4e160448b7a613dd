// The time tracking verbs of issues and merge requests: names, which take a duration, the endpoint of each kind, the output.
import { InvalidArgumentError } from 'commander'
import { parseTimeSpent } from '../../../src/core/durations.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printFields, printRaw, status } from '../../../src/cli/output.js'
import { parseJson, type ApiResponse } from '../../../src/client/http.js'
import type { ResponseOf } from '../../../src/contract/routes.js'

type TimeStats = ResponseOf<'getIssueTimeStats'>

export interface TimeVerb<E extends string> { name: string; description: string; endpoint: E; takesDuration?: boolean; done?: string }

/** The verbs in help order, each with its endpoint for `issue` and for `mr`. */
export const TIME_VERBS = [
  { name: 'estimate', description: 'Set the time estimate (e.g. 3h30m, 1w 2d)', issue: 'setIssueTimeEstimate', mr: 'setMergeRequestTimeEstimate', takesDuration: true, done: 'Set the estimate of' },
  { name: 'spend', description: 'Add time spent (a leading - subtracts)', issue: 'addIssueSpentTime', mr: 'addMergeRequestSpentTime', takesDuration: true, done: 'Added time spent on' },
  { name: 'reset-estimate', description: 'Remove the time estimate', issue: 'resetIssueTimeEstimate', mr: 'resetMergeRequestTimeEstimate', done: 'Removed the estimate of' },
  { name: 'reset-spent', description: 'Remove all time spent', issue: 'resetIssueSpentTime', mr: 'resetMergeRequestSpentTime', done: 'Removed the time spent on' },
  { name: 'stats', description: 'Show the time estimate and time spent', issue: 'getIssueTimeStats', mr: 'getMergeRequestTimeStats' },
] as const

/** The verbs of one kind, with that kind's endpoint. */
export const timeVerbs = <K extends 'issue' | 'mr'>(kind: K) =>
  TIME_VERBS.map((v): TimeVerb<(typeof TIME_VERBS)[number][K]> => ({ name: v.name, description: v.description, endpoint: v[kind], takesDuration: 'takesDuration' in v, done: 'done' in v ? v.done : undefined }))

/** The stats the API answered (or its JSON), then what was done, on stderr. */
export function reportTime(deps: Deps, verb: TimeVerb<string>, response: ApiResponse, json: boolean, what: string): void {
  if (json) printRaw(deps.io, response.text)
  else {
    const t = parseJson<TimeStats>(response)
    printFields(deps.io, [['estimate', t.human_time_estimate], ['spent', t.human_total_time_spent], ['estimate_seconds', t.time_estimate], ['spent_seconds', t.total_time_spent]])
  }
  if (verb.done) status(deps.io, `${verb.done} ${what}`)
}

/** Checked here, before any request: GitLab answers a bad duration with a bare `{"time_spent":["has an invalid format"]}`. */
export function durationArg(value: string): string {
  if (parseTimeSpent(value) === null) throw new InvalidArgumentError('expected a duration such as 3h30m, 1.5h or 1w 2d (mo, w, d, h, m), or -30m to subtract')
  return value
}
