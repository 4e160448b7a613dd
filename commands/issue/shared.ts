// Issues as the shared issuable verbs see them (src/cli/issuable): the `<iid>` argument, the endpoints, the words.
import type { Command } from 'commander'
import { positiveInt, withConnection, withProject } from '../../src/cli/command.js'
import { projectBeforePrompt } from '../../src/cli/factory.js'
import type { IssuableKind } from '../../src/cli/issuable/kind.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export type Issue = ResponseOf<'getProjectIssue'>

/** `<iid>` plus -p, --host, --token: a verb on one issue. */
export const onIssue = (command: Command) =>
  withProject(withConnection(command.argument('<iid>', 'the issue number in its project (#iid)', positiveInt)))

export const ISSUE: IssuableKind = {
  noun: 'issue',
  a: 'an issue',
  sigil: '#',
  argKey: 'iid',
  iidParam: 'issue_iid',
  on: onIssue,
  targetFirst: true,
  resolve: async (deps, options, beforePrompt) => ({ ...(await (beforePrompt ? projectBeforePrompt(deps, options.project) : deps.project(options.project))), iid: options.iid! }),
  endpoints: {
    get: 'getProjectIssue',
    update: 'editProjectIssue',
    delete: 'deleteProjectIssue',
    subscribe: 'subscribeToIssue',
    unsubscribe: 'unsubscribeFromIssue',
    todo: 'createIssueTodo',
    notes: { list: 'listIssueNotes', create: 'createIssueNote', edit: 'editIssueNote', delete: 'deleteIssueNote' },
    time: {
      estimate: 'setIssueTimeEstimate', spend: 'addIssueSpentTime', 'reset-estimate': 'resetIssueTimeEstimate', 'reset-spent': 'resetIssueSpentTime',
      stats: 'getIssueTimeStats',
    },
  },
}
