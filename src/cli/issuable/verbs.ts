// The one-request verbs of an issuable (close, reopen, subscribe, unsubscribe, todo, and a kind's own such as approve),
// and delete. subscribe, unsubscribe and todo may answer 304: nothing changed, said so.
import type { Command, OptionValues } from 'commander'
import { withJson, type Runtime } from '../command.js'
import { failure } from '../errors.js'
import type { Deps } from '../factory.js'
import { reportWrite, status } from '../output.js'
import type { EndpointName } from '../../contract/routes.js'
import { onTarget, reference, routeOn, targetAction, type IssuableKind, type TargetOptions } from './kind.js'

export interface SimpleVerb {
  name: string
  description: string
  endpoint: EndpointName
  json?: Record<string, string>
  done: string
  unchanged?: string
}

export interface SimpleOptions extends TargetOptions { json: boolean }
export interface DeleteOptions extends TargetOptions { yes: boolean }

/** close and reopen (a kind may word close its own way), subscribe, unsubscribe, todo. */
export const sharedVerbs = (kind: IssuableKind, closeHelp = `Close ${kind.a}`): SimpleVerb[] => [
  { name: 'close', description: closeHelp, endpoint: kind.endpoints.update, json: { state_event: 'close' }, done: `Closed ${kind.noun}` },
  { name: 'reopen', description: `Reopen a closed ${kind.noun}`, endpoint: kind.endpoints.update, json: { state_event: 'reopen' }, done: `Reopened ${kind.noun}` },
  { name: 'subscribe', description: `Get notified about ${kind.a}`, endpoint: kind.endpoints.subscribe, done: `Subscribed to ${kind.noun}`, unchanged: `Already subscribed to ${kind.noun}` },
  { name: 'unsubscribe', description: `Stop notifications about ${kind.a}`, endpoint: kind.endpoints.unsubscribe, done: `Unsubscribed from ${kind.noun}`, unchanged: `Not subscribed to ${kind.noun}` },
  { name: 'todo', description: `Add ${kind.a} to your todos`, endpoint: kind.endpoints.todo, done: `Added a todo for ${kind.noun}`, unchanged: `Already a pending todo for ${kind.noun}` },
]

export async function runSimple(kind: IssuableKind, verb: SimpleVerb, options: SimpleOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  const response = await target.api.call(routeOn(kind, verb.endpoint, target), { json: verb.json })
  const message = response.status === 304 && verb.unchanged ? verb.unchanged : verb.done
  reportWrite(deps.io, options.json, response, `${message} ${reference(kind, target)}`)
}

export function registerSimple(group: Command, rt: Runtime, kind: IssuableKind, verbs: SimpleVerb[]): void {
  for (const verb of verbs) {
    const command = withJson(onTarget(kind, group.command(verb.name).description(verb.description)))
    targetAction(kind, command, (target, _args, flags) =>
      rt.invoke(command, (o: SimpleOptions, deps: Deps) => runSimple(kind, verb, o, deps), { ...target, json: flags.json === true }))
  }
}

export async function runDelete(kind: IssuableKind, options: DeleteOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  const what = `${kind.noun} ${reference(kind, target)}`
  if (!options.yes && !(await deps.prompter.confirm(`Delete ${what}?`, '--yes'))) throw failure('nothing was deleted')
  await target.api.call(routeOn(kind, kind.endpoints.delete, target))
  status(deps.io, `Deleted ${what}`)
}

/** Owners and administrators may delete; after a confirmation or --yes. */
export function registerDelete(group: Command, rt: Runtime, kind: IssuableKind): void {
  const command = onTarget(kind, group.command('delete').description(`Delete ${kind.a}`)).option('-y, --yes', 'do not ask for confirmation')
  targetAction(kind, command, (target, _args, flags: OptionValues) =>
    rt.invoke(command, (o: DeleteOptions, deps: Deps) => runDelete(kind, o, deps), { ...target, yes: flags.yes === true }))
}
