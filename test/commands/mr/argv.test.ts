// collab mr …, argv -> options: what each command line hands to run(), and the usage errors (exit 2) that never reach it.
import { describe, expect, it } from 'vitest'
import { optionsOf, parse } from '../parse.js'

const page = { perPage: undefined, all: false }
const noQuery = {
  state: 'opened', labels: undefined, milestone: undefined, iids: undefined, scope: undefined, author_id: undefined, author_username: undefined,
  assignee_id: undefined, assignee_username: undefined, reviewer_id: undefined, reviewer_username: undefined, my_reaction_emoji: undefined, source_branch: undefined,
  target_branch: undefined, search: undefined, wip: undefined, created_after: undefined, created_before: undefined, updated_after: undefined,
  updated_before: undefined, order_by: undefined, sort: undefined, view: undefined,
}
const create = {
  project: undefined, title: undefined, description: undefined, descriptionFile: undefined, sourceBranch: undefined, targetBranch: undefined,
  targetProject: undefined, fill: false, draft: false, removeSourceBranch: false, squash: false, labels: undefined, assignees: undefined,
  reviewers: undefined, milestone: undefined, push: false, json: false,
}
const edit = { project: undefined, mr: '5', description: undefined, descriptionFile: undefined, assignees: undefined, reviewers: undefined, milestone: undefined, json: false }
const merge = {
  project: undefined, mr: undefined, squash: undefined, removeSourceBranch: undefined, whenPipelineSucceeds: false, sha: undefined,
  message: undefined, squashMessage: undefined, yes: false, json: false,
}
const note = { project: undefined, mr: undefined, noteId: undefined, body: undefined, bodyFile: undefined, sort: undefined, orderBy: undefined, ...page, json: false }

describe('mr argv to options', () => {
  it.each([
    [['mr', 'list'], 'mr list', { project: undefined, group: undefined, instance: false, query: noQuery, ...page, json: false }],
    [['mr', 'ls', '-p', 'g/p', '--state', 'merged', '-l', 'bug', '--label', 'ui,db', '--milestone', 'v1', '--iid', '3', '--iid', '4',
      '--scope', 'all', '--author-id', '2', '--author', 'ann', '--assignee-id', 'None', '--reviewer-id', 'Any', '--reviewer', 'bo',
      '--my-reaction-emoji', 'thumbsup', '--source-branch', 'fix', '--target-branch', 'main', '--search', 'parser', '--draft',
      '--created-after', '2024-01-01', '--created-before', '2024-02-01', '--updated-after', '2024-03-01', '--updated-before', '2024-04-01',
      '--order-by', 'updated_at', '--sort', 'asc', '--simple', '--per-page', '5', '--all', '--json'], 'mr list', {
      project: 'g/p', group: undefined, instance: false, query: {
        state: 'merged', labels: 'bug,ui,db', milestone: 'v1', iids: [3, 4], scope: 'all', author_id: 2, author_username: 'ann',
        assignee_id: 'None', assignee_username: undefined, reviewer_id: 'Any', reviewer_username: 'bo', my_reaction_emoji: 'thumbsup', source_branch: 'fix',
        target_branch: 'main', search: 'parser', wip: 'yes', created_after: '2024-01-01', created_before: '2024-02-01',
        updated_after: '2024-03-01', updated_before: '2024-04-01', order_by: 'updated_at', sort: 'asc', view: 'simple',
      }, perPage: 5, all: true, json: true,
    }],
    [['mr', 'list', '--group', 'g', '--no-draft'], 'mr list', { project: undefined, group: 'g', instance: false, query: { ...noQuery, wip: 'no' }, ...page, json: false }],
    [['mr', 'list', '--instance'], 'mr list', { project: undefined, group: undefined, instance: true, query: noQuery, ...page, json: false }],
    [['mr', 'view'], 'mr view', { project: undefined, mr: undefined, comments: false, web: false, json: false }],
    [['mr', 'show', '!7', '-p', '3', '--comments', '--web', '--json'], 'mr view', { project: '3', mr: '!7', comments: true, web: true, json: true }],
    [['mr', 'view', 'http://h/g/p/-/merge_requests/9'], 'mr view', { project: undefined, mr: 'http://h/g/p/-/merge_requests/9', comments: false, web: false, json: false }],
    [['mr', 'create'], 'mr create', create],
    [['mr', 'new', '-t', 'Fix', '-d', 'Body', '-s', 'fix', '-b', 'main', '--target-project', 'up/p', '--fill', '--draft', '--remove-source-branch',
      '--squash', '-l', 'a,b', '-a', 'ann', '--assignee', '3', '--reviewer', 'bo', '-m', 'v1', '--json', '-p', 'me/p'], 'mr create', {
      ...create, project: 'me/p', title: 'Fix', description: 'Body', sourceBranch: 'fix', targetBranch: 'main', targetProject: 'up/p', fill: true,
      draft: true, removeSourceBranch: true, squash: true, labels: ['a', 'b'], assignees: ['ann', '3'], reviewers: ['bo'], milestone: 'v1', json: true,
    }],
    [['mr', 'create', '--push'], 'mr create', { ...create, push: true }],
    [['mr', 'create', '-F', '-'], 'mr create', { ...create, descriptionFile: '-' }],
    [['mr', 'edit', '5', '-t', 'New', '-F', 'd.md', '-b', 'dev', '-l', '', '--add-label', 'x', '--remove-label', 'y', '--unassign', '--reviewer', 'bo',
      '-m', 'none', '--no-remove-source-branch', '--squash', '--lock', '--json'], 'mr edit', {
      ...edit, fields: { title: 'New', target_branch: 'dev', labels: '', add_labels: 'x', remove_labels: 'y', remove_source_branch: false, squash: true, discussion_locked: true },
      descriptionFile: 'd.md', assignees: [], reviewers: ['bo'], milestone: 'none', json: true,
    }],
    [['mr', 'update', '5', '--assignee', 'ann,3', '--unlock', '--no-squash', '--remove-source-branch'], 'mr edit', {
      ...edit, fields: { remove_source_branch: true, squash: false, discussion_locked: false }, assignees: ['ann', '3'],
    }],
    [['mr', 'merge'], 'mr merge', merge],
    [['mr', 'accept', 'fix', '--squash', '-d', '--when-pipeline-succeeds', '--sha', 'abc', '-m', 'Merge it', '--squash-message', 'One', '--json'], 'mr merge', {
      ...merge, mr: 'fix', squash: true, removeSourceBranch: true, whenPipelineSucceeds: true, sha: 'abc', message: 'Merge it', squashMessage: 'One', json: true,
    }],
    [['mr', 'merge', '2', '--no-squash'], 'mr merge', { ...merge, mr: '2', squash: false }],
    [['mr', 'close', '2'], 'mr close', { project: undefined, mr: '2', json: false }],
    [['mr', 'reopen', '!2', '--json'], 'mr reopen', { project: undefined, mr: '!2', json: true }],
    [['mr', 'subscribe'], 'mr subscribe', { project: undefined, mr: undefined, json: false }],
    [['mr', 'unsubscribe', '2', '-p', 'g/p'], 'mr unsubscribe', { project: 'g/p', mr: '2', json: false }],
    [['mr', 'todo', '2'], 'mr todo', { project: undefined, mr: '2', json: false }],
    [['mr', 'rebase', 'fix'], 'mr rebase', { project: undefined, mr: 'fix', json: false }],
    [['mr', 'approve', '2'], 'mr approve', { project: undefined, mr: '2', json: false }],
    [['mr', 'checks', '2', '--watch', '--interval', '0.5'], 'mr checks', { project: undefined, mr: '2', watch: true, interval: 0.5, json: false }],
    [['mr', 'merge', '2', '-y'], 'mr merge', { ...merge, mr: '2', yes: true }],
    [['mr', 'delete', '2', '--yes'], 'mr delete', { project: undefined, mr: '2', yes: true }],
    [['mr', 'delete'], 'mr delete', { project: undefined, mr: undefined, yes: false }],
    [['mr', 'diff', '2', '--json'], 'mr diff', { project: undefined, mr: '2', json: true }],
    [['mr', 'commits', '2', '--all'], 'mr commits', { project: undefined, mr: '2', perPage: undefined, all: true, json: false }],
    [['mr', 'checkout', '2'], 'mr checkout', { project: undefined, mr: '2', branch: undefined }],
    [['mr', 'co', 'fix', '-b', 'review/fix'], 'mr checkout', { project: undefined, mr: 'fix', branch: 'review/fix' }],
    [['mr', 'participants', '2', '--json'], 'mr participants', { project: undefined, mr: '2', ...page, json: true }],
    [['mr', 'closes-issues', '--per-page', '3'], 'mr closes-issues', { project: undefined, mr: undefined, perPage: 3, all: false, json: false }],
    [['mr', 'note', 'add', '2', '-m', 'Nice'], 'mr note add', { ...note, mr: '2', body: 'Nice' }],
    [['mr', 'note', 'comment', '-F', '-'], 'mr note add', { ...note, bodyFile: '-' }],
    [['mr', 'note', 'ls', '2', '--sort', 'asc', '--order-by', 'updated_at', '--all', '--json'], 'mr note list', { ...note, mr: '2', sort: 'asc', orderBy: 'updated_at', all: true, json: true }],
    [['mr', 'note', 'edit', '11', '2', '-m', 'Better'], 'mr note edit', { ...note, mr: '2', noteId: 11, body: 'Better' }],
    [['mr', 'note', 'delete', '11'], 'mr note delete', { ...note, noteId: 11 }],
    [['mr', 'time', 'estimate', '3h', '2'], 'mr time estimate', { project: undefined, mr: '2', duration: '3h', summary: undefined, json: false }],
    [['mr', 'time', 'spend', '1h30m', '--summary', 'review', '--json'], 'mr time spend', { project: undefined, mr: undefined, duration: '1h30m', summary: 'review', json: true }],
    [['mr', 'time', 'reset-estimate', '2'], 'mr time reset-estimate', { project: undefined, mr: '2', duration: undefined, summary: undefined, json: false }],
    [['mr', 'time', 'reset-spent'], 'mr time reset-spent', { project: undefined, mr: undefined, duration: undefined, summary: undefined, json: false }],
    [['mr', 'time', 'stats', '2', '--json'], 'mr time stats', { project: undefined, mr: '2', duration: undefined, summary: undefined, json: true }],
  ])('%j', async (argv, command, options) => {
    expect(await optionsOf(argv)).toEqual({ command, options })
  })
})

describe('mr usage errors', () => {
  it.each([
    [['mr', 'list', '--state', 'shut'], "error: option '-s, --state <state>' argument 'shut' is invalid. Allowed choices are opened, closed, locked, merged, all.\nhint: see 'collab mr list --help'\n"],
    [['mr', 'note', 'edit'], "error: missing required argument 'note-id'\nhint: see 'collab mr note edit --help'\n"],
    [['mr', 'time', 'spend'], "error: missing required argument 'duration'\nhint: see 'collab mr time spend --help'\n"],
    [['mr', 'merge', '--bogus'], "error: unknown option '--bogus'\nhint: see 'collab mr merge --help'\n"],
  ])('%j', async (argv, stderr) => {
    expect(await parse(argv)).toEqual({ stdout: '', stderr, exitCode: 2, invoked: [] })
  })
})
