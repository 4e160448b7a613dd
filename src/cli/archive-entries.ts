// Which archive entries the CLI may write into a directory the user named (normally a clone): none that climbs out,
// none that is a link, and none inside a git directory, where a job's artifact could plant a hook
// (`.git/hooks/post-checkout`) that runs at the user's next git command. The `.git` spellings are git's own
// verify_path: any case, NTFS's trailing dots and spaces and 8.3 short name (`git~1`), HFS+'s ignored code points.

// Code points HFS+ drops when it compares names, so `.g\u200cit` is `.git` there (git's is_hfs_dotgit).
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g

/** Whether one path segment names a git directory on some file system git protects. */
export function isDotGit(segment: string): boolean {
  const name = segment.replace(HFS_IGNORED, '').toLowerCase()
  // NTFS ignores trailing dots and spaces, and `:stream` names a stream of the same file.
  return /^(?:\.git|git~1)[. ]*(?::.*)?$/.test(name)
}

/** Why an entry may not be written under the destination, or null when it may. */
export function entryRefusal(name: string, isLink: boolean): string | null {
  if (isLink) return 'a symbolic link'
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return 'an absolute path'
  const segments = name.split(/[/\\]/)
  if (segments.includes('..')) return 'a path out of the directory'
  if (segments.some(isDotGit)) return 'a path into a .git directory'
  return null
}
