// isomorphic-git, evaluated by the first call that needs it: reads and merges go through the git command line, so a
// server's start and most requests never use the package (evaluating it took ~11 ms of each start). The git/ files
// call it through these functions, which take the same arguments and answer the same as isomorphic-git's.
import type * as IsoGit from 'isomorphic-git'

type Api = typeof IsoGit
type AsyncName = { [K in keyof Api]: Api[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof Api]

let loading: Promise<Api> | undefined
const load = () => (loading ??= import('isomorphic-git'))

function deferred<K extends AsyncName>(name: K): Api[K] {
  return (async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args)) as Api[K]
}

export const deleteRef = deferred('deleteRef')
export const expandOid = deferred('expandOid')
export const findMergeBase = deferred('findMergeBase')
export const init = deferred('init')
export const isDescendent = deferred('isDescendent')
export const listBranches = deferred('listBranches')
export const listTags = deferred('listTags')
export const log = deferred('log')
export const readBlob = deferred('readBlob')
export const readCommit = deferred('readCommit')
export const readObject = deferred('readObject')
export const readTag = deferred('readTag')
export const readTree = deferred('readTree')
export const resolveRef = deferred('resolveRef')
export const writeBlob = deferred('writeBlob')
export const writeCommit = deferred('writeCommit')
export const writeObject = deferred('writeObject')
export const writeRef = deferred('writeRef')
export const writeTag = deferred('writeTag')
export const writeTree = deferred('writeTree')

/** isomorphic-git's walk over the tree of one commit (`TREE`, the walker it takes, is made by the loaded package). */
export async function walkTree({ ref, ...options }: Omit<Parameters<Api['walk']>[0], 'trees'> & { ref: string }) {
  const git = await load()
  return git.walk({ ...options, trees: [git.TREE({ ref })] })
}
