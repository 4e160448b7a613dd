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
  /** Hunks only (from the first `@@`), or git's binary notice. */
  diff: string
  additions: number
  deletions: number
}

export interface TreeItem { oid: string; name: string; path: string; type: 'blob' | 'tree' | 'commit'; mode: string }

export interface RefInfo { name: string; oid: string }

export interface TagInfo { name: string; target: string; commit: string; message: string | null; taggerDate: string | null }

export class GitError extends Error {
  constructor(readonly kind: 'not_found' | 'stale' | 'conflict' | 'invalid' | 'exists', message: string) {
    super(message)
  }
}
