// GitLab's default merge and squash commit messages.

/** Rails' Array#to_sentence: `a`, `a and b`, `a, b, and c`. */
export function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(' and ')
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`
}

export interface MergeMessageInput {
  sourceBranch: string
  targetBranch: string
  title: string
  /** References of the issues the merge closes, such as `#1`; the line is left out when there are none. */
  closesIssues?: string[]
  /** The merge request's full reference: `group/project!5`. */
  reference: string
}

/** `Merge branch 'src' into 'tgt'`, the title, `Closes #1 and #2`, `See merge request group/project!5`, one blank line apart. */
export function defaultMergeCommitMessage(mr: MergeMessageInput): string {
  const parts = [`Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title]
  if (mr.closesIssues?.length) parts.push(`Closes ${toSentence(mr.closesIssues)}`)
  parts.push(`See merge request ${mr.reference}`)
  return parts.join('\n\n')
}

/** GitLab's default squash commit message is the merge request's title. */
export const defaultSquashCommitMessage = (title: string) => title
