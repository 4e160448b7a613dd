// The head every merge request page shares: title, state, branches and the Overview / Commits / Changes tabs.
import type { ProjectView } from '../../store/projects.js'
import type { MergeRequestRow } from '../../services/merge-requests/index.js'
import type { WebContext } from '../context.js'
import { html, type Html } from '../html.js'
import { projectUrl } from './parts.js'
import { projectHeader } from './project.js'

export const STATE_WORDS: Record<string, string> = { opened: 'Open', merged: 'Merged', closed: 'Closed', locked: 'Locked' }
export const draftMarker = html`<span class="label draft">Draft</span>`

export type MergeRequestTab = 'overview' | 'commits' | 'diffs'

/** Title, state, branches and the three tabs every page of one merge request starts with. */
export function mergeRequestHead(ctx: WebContext, p: ProjectView, mr: MergeRequestRow, active: MergeRequestTab, draft: boolean): Html {
  const url = `${projectUrl(ctx, p)}/-/merge_requests/${mr.iid}`
  const tab = (name: MergeRequestTab, href: string, label: string) =>
    html`<a href="${href}" id="tab-${name}"${active === name ? html` class="badge"` : ''}>${label}</a>`
  return html`${projectHeader(ctx, p, 'merge_requests')}
<h1 id="mr-title">${mr.title}</h1>
<p><span class="badge state-${mr.state}" id="mr-state">${STATE_WORDS[mr.state]}</span>${draft ? html` ${draftMarker}` : ''}
<span class="muted">!${mr.iid}</span> <code id="mr-source">${mr.source_branch}</code> → <code id="mr-target">${mr.target_branch}</code></p>
<nav class="bar" id="mr-tabs">${tab('overview', url, 'Overview')}${tab('commits', `${url}/commits`, 'Commits')}${tab('diffs', `${url}/diffs`, 'Changes')}</nav>`
}
