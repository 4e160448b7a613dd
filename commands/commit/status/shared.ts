// What the status verbs share: GitLab's states and the status fields the CLI reads.
export const STATES = ['pending', 'running', 'success', 'failed', 'canceled'] as const

/** api-v4.md §Commits, commit status. */
export interface CommitStatus {
  id: number
  sha: string
  ref: string | null
  status: string
  name: string
  target_url: string | null
  description: string | null
  coverage?: number | null
  created_at: string
  author: { username: string }
}
