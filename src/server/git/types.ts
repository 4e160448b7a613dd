// Plain data the git layer hands to services; services never see isomorphic-git or git's text formats.
export interface CommitInfo {
  id: string
  parents: string[]
  message: string
  authorName: string
  authorEmail: string
  /** ISO 8601 with milliseconds and the author's offset, as GitLab renders commit dates. */
  authoredDate: string
  committerName: string
  committerEmail: string
  committedDate: string
  trailers: [string, string][]
}

export interface DiffFile {
  oldPath: string
  newPath: string
  aMode: string | null
  bMode: string | null
  newFile: boolean
  renamedFile: boolean
  deletedFile: boolean
  /** Blob ids of both sides (git's all-zero id for a missing side), for the `index` line of a raw patch. */
  aBlob?: string
  bBlob?: string
  /** git's rename score (`R090` is 90), where git reported one. */
  similarity?: number
  /** Hunks only (from the first `@@`), or git's binary notice. */
  diff: string
  additions: number
  deletions: number
}

export interface TreeItem { oid: string; name: string; path: string; type: 'blob' | 'tree' | 'commit'; mode: string }

export interface RefInfo { name: string; oid: string }

export interface TagInfo { name: string; target: string; commit: string; message: string | null; taggerDate: string | null }

/**
 * `conflict`: the contents cannot be combined; `stale`: a ref moved under us (compare-and-swap lost);
 * `sha_mismatch`: the caller's expected source head is not the head; `need_rebase`: only a fast-forward is allowed and
 * the target is not an ancestor of the source; `empty`: nothing to merge (the source is already in the target).
 */
export type GitErrorKind = 'not_found' | 'stale' | 'conflict' | 'invalid' | 'exists' | 'sha_mismatch' | 'need_rebase' | 'empty'

export class GitError extends Error {
  constructor(readonly kind: GitErrorKind, message: string) {
    super(message)
  }
}
