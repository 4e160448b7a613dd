// collab mr time: estimate, spend, reset-estimate, reset-spent and stats, with GitLab's durations (`3h30m`, `1w 2d`).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { route } from '../../../src/client/paths.js'
import { durationArg, reportTime, timeVerbs } from '../../issue/time/verbs.js'
import { onMergeRequest, reference, resolveMergeRequest } from '../shared.js'

export interface TimeOptions { project?: string; mr?: string; duration?: string; summary?: string; json: boolean }

type Verb = ReturnType<typeof timeVerbs<'mr'>>[number]

export async function runTime(verb: Verb, options: TimeOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const json = verb.takesDuration ? { duration: options.duration, summary: options.summary } : undefined
  const response = await target.api.call(route(verb.endpoint, { id: target.ref, merge_request_iid: target.iid }), { json })
  reportTime(deps, verb, response, options.json, `merge request ${reference(target)}`)
}

/** The duration comes first (`collab mr time spend 1h30m [mr]`), since the merge request may be left out. */
export function register(group: Command, rt: Runtime): void {
  const time = group.command('time').description('Track time on a merge request: estimate, spend, reset-estimate, reset-spent, stats')
  for (const verb of timeVerbs('mr')) {
    const command = time.command(verb.name).description(verb.description)
    if (verb.takesDuration) command.argument('<duration>', 'a duration such as 3h30m, 1.5h, 1w 2d (mo, w, d, h, m); -30m subtracts', durationArg)
    if (verb.name === 'spend') command.option('--summary <text>', 'what the time was spent on')
    withJson(onMergeRequest(command)).action((...args: unknown[]) => {
      const [duration, mr] = verb.takesDuration ? (args as [string, string | undefined]) : [undefined, args[0] as string | undefined]
      const flags = args[verb.takesDuration ? 2 : 1] as OptionValues
      const options: TimeOptions = { project: flags.project, mr, duration, summary: flags.summary, json: flags.json === true }
      return rt.invoke(command, (o: TimeOptions, deps: Deps) => runTime(verb, o, deps), options)
    })
  }
}
