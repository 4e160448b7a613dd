// What the CLI's shared issuable verbs need to know of a kind: how a verb names its target (`<iid>` for an issue;
// `[mr]`, an iid, a branch or a URL, for a merge request), the endpoints and the words. The verbs themselves are one.
import type { Command, OptionValues } from 'commander'
import type { ApiClient } from '../../client/http.js'
import { route, type Route } from '../../client/paths.js'
import type { EndpointName, ResponseOf } from '../../contract/routes.js'
import type { Deps } from '../factory.js'

export interface IssuableTarget { api: ApiClient; ref: string; iid: number }

/** What a command line names: the project (-p) and the issuable, under the kind's own options key. */
export interface TargetOptions { project?: string; iid?: number; mr?: string }

export interface IssuableKind {
  noun: 'issue' | 'merge request'
  /** The noun with its article, for help texts. */
  a: 'an issue' | 'a merge request'
  /** GitLab's reference sigil: `#4`, `!4`. */
  sigil: '#' | '!'
  /** The options key of the target (what run() and the argv tests read). */
  argKey: 'iid' | 'mr'
  iidParam: 'issue_iid' | 'merge_request_iid'
  /** Adds the target argument and -p, --host, --token. */
  on(command: Command): Command
  /**
   * Whether the target comes before a verb's own arguments (`issue note edit <iid> <note-id>`); a merge request,
   * which may be left out, comes after them (`mr note edit <note-id> [mr]`).
   */
  targetFirst: boolean
  /** `beforePrompt`: the verb is about to ask for text, so a wrong project or login should fail first. */
  resolve(deps: Deps, options: TargetOptions, beforePrompt?: boolean): Promise<IssuableTarget>
  endpoints: {
    get: 'getProjectIssue' | 'getProjectMergeRequest'
    update: 'editProjectIssue' | 'updateProjectMergeRequest'
    delete: 'deleteProjectIssue' | 'deleteProjectMergeRequest'
    subscribe: 'subscribeToIssue' | 'subscribeToMergeRequest'
    unsubscribe: 'unsubscribeFromIssue' | 'unsubscribeFromMergeRequest'
    todo: 'createIssueTodo' | 'createMergeRequestTodo'
    notes: {
      list: 'listIssueNotes' | 'listMergeRequestNotes'
      create: 'createIssueNote' | 'createMergeRequestNote'
      edit: 'editIssueNote' | 'editMergeRequestNote'
      delete: 'deleteIssueNote' | 'deleteMergeRequestNote'
    }
    time: Record<'estimate' | 'spend' | 'reset-estimate' | 'reset-spent' | 'stats', EndpointName>
  }
  /** `time spend --summary`: what the time was spent on (merge requests). */
  spendSummary?: boolean
}

/** `#4 in group/project`, `!4 in group/project`: how every status line names its issuable. */
export const reference = (kind: IssuableKind, target: IssuableTarget) => `${kind.sigil}${target.iid} in ${target.ref}`

/** The route of one of the kind's endpoints on `target`; `extra` fills the rest of its path (`note_id`). */
export const routeOn = <N extends EndpointName>(kind: IssuableKind, name: N, target: IssuableTarget, extra: Record<string, number> = {}): Route<ResponseOf<N>> =>
  route(name, { id: target.ref, [kind.iidParam]: target.iid, ...extra } as never)

/** Adds the target and, in the kind's order, the verb's own arguments (and options that go before -p). */
export function onTarget(kind: IssuableKind, command: Command, own: (command: Command) => void = () => {}): Command {
  if (!kind.targetFirst) own(command)
  kind.on(command)
  if (kind.targetFirst) own(command)
  return command
}

/** The action of a verb made by onTarget: its target's options, its own arguments in order, and its flags. */
export function targetAction(kind: IssuableKind, command: Command, act: (target: TargetOptions, args: unknown[], flags: OptionValues) => Promise<void>): void {
  command.action((...all: unknown[]) => {
    const count = command.registeredArguments.length
    const values = all.slice(0, count)
    const flags = all[count] as OptionValues
    const [target, args] = kind.targetFirst ? [values[0], values.slice(1)] : [values[count - 1], values.slice(0, -1)]
    return act({ project: flags.project, [kind.argKey]: target }, args, flags)
  })
}
