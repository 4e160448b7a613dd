// Walking a zip's entries one at a time with yauzl (lazyEntries), shared by the server's artifact reads and runners.
import type yauzl from 'yauzl'

/** Calls `visit` for each entry in order until it returns true; resolves with that entry or null. */
export function findZipEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => boolean | Promise<boolean>): Promise<yauzl.Entry | null> {
  return new Promise((resolveEntry, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      Promise.resolve(visit(entry)).then((stop) => (stop ? resolveEntry(entry) : zip.readEntry()), reject)
    })
    zip.on('end', () => resolveEntry(null))
    zip.on('error', reject)
    zip.readEntry()
  })
}
