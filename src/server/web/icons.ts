// The pages' icons as inline SVG (no font or emoji needed, nothing fetched, allowed by the CSP): each is hidden from
// assistive technology, and the text beside it (or a visually hidden word) says what it means.
import { html, trusted, type Html } from './html.js'

/** 16×16 paths, drawn for this project. */
const PATHS = {
  folder: 'M1.5 3A1.5 1.5 0 0 1 3 1.5h3.4l1.5 2H13A1.5 1.5 0 0 1 14.5 5v7.5A1.5 1.5 0 0 1 13 14H3a1.5 1.5 0 0 1-1.5-1.5z',
  file: 'M3.5 1h6l3.5 3.5V14a1 1 0 0 1-1 1h-8.5a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1zm6 .8V5h3.2zM4 6.5v1h8v-1zm0 2.5v1h8V9zm0 2.5v1h5.5v-1z',
  symlink: 'M3.5 1h6l3.5 3.5V14a1 1 0 0 1-1 1h-8.5a1 1 0 0 1-1-1V2a1 1 0 0 1 1-1zM5 12.5h1.2c0-2 1-3 3-3V11L12 8.5 9.2 6v1.5C6.5 7.5 5 9.5 5 12.5z',
  submodule: 'M1.5 3A1.5 1.5 0 0 1 3 1.5h3.4l1.5 2H13A1.5 1.5 0 0 1 14.5 5v7.5A1.5 1.5 0 0 1 13 14H3a1.5 1.5 0 0 1-1.5-1.5zM7 7v1.5H5v1.5h2v1.5L10 9z',
  copy: 'M5 1h7.5A1.5 1.5 0 0 1 14 2.5V10h-1.5V2.5H5zM2 4.5A1.5 1.5 0 0 1 3.5 3h6A1.5 1.5 0 0 1 11 4.5v9A1.5 1.5 0 0 1 9.5 15h-6A1.5 1.5 0 0 1 2 13.5zm1.5 0v9h6v-9z',
  success: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm3.3 4.3L7 9.6 4.7 7.3 3.6 8.4 7 11.8l5.4-5.4z',
  failed: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zM5.6 4.5 4.5 5.6 6.9 8l-2.4 2.4 1.1 1.1L8 9.1l2.4 2.4 1.1-1.1L9.1 8l2.4-2.4-1.1-1.1L8 6.9z',
  running: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm0 1.5a5.5 5.5 0 1 0 0 11zM8 4a4 4 0 0 1 0 8z',
  pending: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm0 1.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11zM5.5 5.5h1.7v5H5.5zm3.3 0h1.7v5H8.8z',
  canceled: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm0 1.5a5.5 5.5 0 0 0-4.4 8.8l7.7-7.7A5.5 5.5 0 0 0 8 2.5zm4.4 2.2-7.7 7.7a5.5 5.5 0 0 0 7.7-7.7z',
  skipped: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zM4.5 5v6l4-3zm4 0v6l4-3z',
  neutral: 'M8 1a7 7 0 1 1 0 14A7 7 0 0 1 8 1zm0 1.5a5.5 5.5 0 1 0 0 11 5.5 5.5 0 0 0 0-11z',
} as const

export type IconName = keyof typeof PATHS
export const ICON_NAMES = Object.keys(PATHS) as IconName[]

/** An icon alone; its meaning must be in the text next to it. */
export const icon = (name: IconName) =>
  trusted(`<svg class="icon icon-${name}" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path d="${PATHS[name]}"/></svg>`)

/** An icon with a word that only screen readers read (where the surrounding text does not say it). */
export const iconWithLabel = (name: IconName, label: string): Html => html`${icon(name)}<span class="sr-only">${label}</span>`

/** A tree entry's icon: folder, file, symbolic link or submodule (git's tree modes). */
export function treeIcon(type: string, mode: string): Html {
  if (type === 'tree') return iconWithLabel('folder', 'Folder')
  if (type === 'commit') return iconWithLabel('submodule', 'Submodule')
  if (mode === '120000') return iconWithLabel('symlink', 'Symbolic link')
  return iconWithLabel('file', 'File')
}

const STATUS_ICONS: Record<string, IconName> = {
  success: 'success', failed: 'failed', running: 'running', pending: 'pending', created: 'pending', preparing: 'pending',
  waiting_for_resource: 'pending', scheduled: 'pending', canceled: 'canceled', skipped: 'skipped', manual: 'neutral',
}

/** A pipeline's status as an icon and its word (read by screen readers, shown as the link's title). */
export function statusIcon(status: string): Html {
  return html`${icon(STATUS_ICONS[status] ?? 'neutral')}<span class="sr-only">${status}</span>`
}

/** A pipeline's status as an icon linked to it, its number and status in the title (commit and merge request lists). */
export const pipelineStatusLink = (projectUrl: string, pipeline: { id: number; status: string }) =>
  html`<a href="${projectUrl}/-/pipelines/${pipeline.id}" class="ci-icon ci-icon-${pipeline.status}" title="Pipeline #${pipeline.id}: ${pipeline.status}">${statusIcon(pipeline.status)}</a>`
