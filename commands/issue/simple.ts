// close, reopen, subscribe, unsubscribe, todo: one request on one issue; subscribe, unsubscribe and todo may answer 304.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../project/shared.js'
import { route } from '../../src/client/paths.js'
import { onIssue } from './shared.js'

export interface SimpleOptions { project?: string; iid: number; json: boolean }

interface Verb {
  name: 'close' | 'reopen' | 'subscribe' | 'unsubscribe' | 'todo'
  description: string
  endpoint: 'editProjectIssue' | 'subscribeToIssue' | 'unsubscribeFromIssue' | 'createIssueTodo'
  json?: Record<string, string>
  done: string
  unchanged?: string
}

export const VERBS: Verb[] = [
  { name: 'close', description: 'Close an issue', endpoint: 'editProjectIssue', json: { state_event: 'close' }, done: 'Closed issue' },
  { name: 'reopen', description: 'Reopen a closed issue', endpoint: 'editProjectIssue', json: { state_event: 'reopen' }, done: 'Reopened issue' },
  { name: 'subscribe', description: 'Get notified about an issue', endpoint: 'subscribeToIssue', done: 'Subscribed to issue', unchanged: 'Already subscribed to issue' },
  { name: 'unsubscribe', description: 'Stop notifications about an issue', endpoint: 'unsubscribeFromIssue', done: 'Unsubscribed from issue', unchanged: 'Not subscribed to issue' },
  { name: 'todo', description: 'Add an issue to your todos', endpoint: 'createIssueTodo', done: 'Added a todo for issue', unchanged: 'Already a pending todo for issue' },
]

export function registerAll(group: Command, rt: Runtime): void {
  for (const verb of VERBS) {
    const command = withJson(onIssue(group.command(verb.name).description(verb.description)))
    command.action((iid: number, flags: OptionValues) =>
      rt.invoke(command, (options: SimpleOptions, deps: Deps) => runVerb(verb, options, deps), toOptions(iid, flags)))
  }
}

export const toOptions = (iid: number, flags: OptionValues): SimpleOptions => ({ project: flags.project, iid, json: flags.json === true })

export async function runVerb(verb: Verb, options: SimpleOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const response = await api.call(route(verb.endpoint, { id: ref, issue_iid: options.iid }), { json: verb.json })
  const message = response.status === 304 && verb.unchanged ? verb.unchanged : verb.done
  reportWrite(deps.io, options.json, response, `${message} #${options.iid} in ${ref}`)
}
