// collab issue time: estimate, spend, reset-estimate, reset-spent and stats, with GitLab's durations (`3h30m`, `1w 2d`).
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { route } from '../../../src/client/paths.js'
import { onIssue } from '../shared.js'
import { durationArg, reportTime, timeVerbs } from './verbs.js'

export interface TimeOptions { project?: string; iid: number; duration?: string; json: boolean }

type Verb = ReturnType<typeof timeVerbs<'issue'>>[number]

export async function runTime(verb: Verb, options: TimeOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route(verb.endpoint, { id: ref, issue_iid: options.iid }), verb.takesDuration ? { json: { duration: options.duration } } : {})
  reportTime(deps, verb, response, options.json, `issue #${options.iid} in ${ref}`)
}

export function register(group: Command, rt: Runtime): void {
  const time = group.command('time').description('Track time on an issue: estimate, spend, reset-estimate, reset-spent, stats')
  for (const verb of timeVerbs('issue')) {
    let command = withJson(onIssue(time.command(verb.name).description(verb.description)))
    if (verb.takesDuration) command = command.argument('<duration>', 'a duration such as 3h30m, 1.5h, 1w 2d (mo, w, d, h, m); -30m subtracts', durationArg)
    command.action((iid: number, ...rest: unknown[]) => {
      const flags = rest[verb.takesDuration ? 1 : 0] as OptionValues
      const options: TimeOptions = { project: flags.project, iid, duration: verb.takesDuration ? String(rest[0]) : undefined, json: flags.json === true }
      return rt.invoke(command, (o: TimeOptions, deps: Deps) => runTime(verb, o, deps), options)
    })
  }
}
