// The files of one commit as the config layer reads them (include:local, rules:exists); an empty repository has none.
import { entryAt, readBlob, readTreeItems } from '../../git/read.js'
import type { IncludeSource } from './include.js'

export function commitFiles(gitdir: string, sha: string | null): IncludeSource {
  let listing: Promise<string[]> | null = null
  return {
    async readFile(path) {
      if (!sha) return null
      const entry = await entryAt(gitdir, sha, path).catch(() => null)
      return entry?.type === 'blob' ? (await readBlob(gitdir, entry.oid)).toString('utf8') : null
    },
    listFiles() {
      listing ??= (async () => {
        const root = sha ? await entryAt(gitdir, sha, '').catch(() => null) : null
        if (!root) return []
        const items = await readTreeItems(gitdir, root.oid, '', true)
        return items.flatMap((i) => (i.type === 'blob' ? [i.path] : []))
      })()
      return listing
    },
  }
}
