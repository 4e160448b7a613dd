// close, reopen, subscribe, unsubscribe, todo, rebase, approve, unapprove: one request on one merge request; subscribe,
// unsubscribe and todo may answer 304.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { route } from '../../src/client/paths.js'
import { reportWrite } from '../project/shared.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

export interface SimpleOptions { project?: string; mr?: string; json: boolean }

interface Verb {
  name: 'close' | 'reopen' | 'subscribe' | 'unsubscribe' | 'todo' | 'rebase' | 'approve' | 'unapprove'
  description: string
  endpoint: 'updateProjectMergeRequest' | 'subscribeToMergeRequest' | 'unsubscribeFromMergeRequest' | 'createMergeRequestTodo' | 'rebaseMergeRequest'
    | 'approveMergeRequest' | 'unapproveMergeRequest'
  json?: Record<string, string>
  done: string
  unchanged?: string
}

export const VERBS: Verb[] = [
  { name: 'close', description: 'Close a merge request without merging it', endpoint: 'updateProjectMergeRequest', json: { state_event: 'close' }, done: 'Closed merge request' },
  { name: 'reopen', description: 'Reopen a closed merge request', endpoint: 'updateProjectMergeRequest', json: { state_event: 'reopen' }, done: 'Reopened merge request' },
  { name: 'subscribe', description: 'Get notified about a merge request', endpoint: 'subscribeToMergeRequest', done: 'Subscribed to merge request', unchanged: 'Already subscribed to merge request' },
  { name: 'unsubscribe', description: 'Stop notifications about a merge request', endpoint: 'unsubscribeFromMergeRequest', done: 'Unsubscribed from merge request', unchanged: 'Not subscribed to merge request' },
  { name: 'todo', description: 'Add a merge request to your todos', endpoint: 'createMergeRequestTodo', done: 'Added a todo for merge request', unchanged: 'Already a pending todo for merge request' },
  { name: 'rebase', description: 'Rebase the source branch onto the target branch (on the server)', endpoint: 'rebaseMergeRequest', done: 'Rebase requested for merge request' },
  { name: 'approve', description: 'Approve a merge request', endpoint: 'approveMergeRequest', done: 'Approved merge request' },
  { name: 'unapprove', description: 'Withdraw your approval of a merge request', endpoint: 'unapproveMergeRequest', done: 'Withdrew your approval of merge request' },
]

export function registerAll(group: Command, rt: Runtime): void {
  for (const verb of VERBS) {
    const command = withJson(onMergeRequest(group.command(verb.name).description(verb.description)))
    command.action((mr: string | undefined, flags: OptionValues) =>
      rt.invoke(command, (options: SimpleOptions, deps: Deps) => runVerb(verb, options, deps), toOptions(mr, flags)))
  }
}

export const toOptions = (mr: string | undefined, flags: OptionValues): SimpleOptions => ({ project: flags.project, mr, json: flags.json === true })

export async function runVerb(verb: Verb, options: SimpleOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const response = await target.api.call(route(verb.endpoint, { id: target.ref, merge_request_iid: target.iid }), { json: verb.json })
  const message = response.status === 304 && verb.unchanged ? verb.unchanged : verb.done
  reportWrite(deps.io, options.json, response, `${message} ${reference(target)}`)
}
