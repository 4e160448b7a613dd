// Reading refs, commits, trees and blobs of a bare repository: the reads services and CI call, each from the file that
// does it, and the one call that forgets what they keep of a repository. Objects come from git itself (a pool of
// `git cat-file --batch-command` processes, cat-file.ts); isomorphic-git answers only where no git command line is installed.
import { forgetObjects } from './cat-file.js'
import { forgetAncestry } from './ancestry.js'
import { forgetCommitIds } from './commit-read.js'
import { forgetIsoCache } from './iso-cache.js'

export { branchesMergedInto, isAncestor, mergeBaseOf, refsContaining } from './ancestry.js'
export { blobInfo, blobSha256, blobToSend, openBlob, readBlob, WHOLE_BLOB_BYTES } from './blob-read.js'
export { parseTrailers, readCommitGpgsig, readCommitInfo, readRawMessage, resolveCommit } from './commit-read.js'
export { cacheFor } from './iso-cache.js'
export { isValidNewRefName, isValidRefName, listBranches, listTags, readBranch, readRef, readTagInfo, unpeeledTarget } from './ref-read.js'
export { entryAt, readTreeItems } from './tree-read.js'

/** Packs may be replaced by a push, objects removed by housekeeping, the directory deleted: read everything afresh. */
export function forgetCache(gitdir: string) {
  forgetIsoCache(gitdir)
  forgetCommitIds(gitdir)
  forgetAncestry(gitdir)
  forgetObjects(gitdir)
}
