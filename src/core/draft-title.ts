// Whether a merge request's title marks it a draft: read by its presenters and merge rules, and by CI for
// CI_MERGE_REQUEST_DRAFT, so it lives below both.

/**
 * Draft titles: GitLab 17's `[draft]`, `(draft)`, `draft:`; 13.x's `draft - ` and a bare `draft`; 11.x's `[WIP]`,
 * `WIP:` and `WIP ` (compat-mr-ci-wiki.md §1.3). Case-insensitive, at the start.
 */
const DRAFT = /^\s*(\[draft\]|\(draft\)|draft:|draft -|draft\s*$|\[wip\]|wip:|wip )/i
export const isDraft = (title: string) => DRAFT.test(title)
