// Whether bubblewrap can make a job sandbox on this machine (installed, and user namespaces allowed). Asked by the
// runner before it takes jobs, and by `collab serve` to decide what its own runner may run.
import { execFile } from 'node:child_process'

let probe: Promise<string | null> | undefined

/** null when bwrap works here; else why not, in a sentence. Asked once per process. */
export function sandboxUnavailable(bwrap = 'bwrap'): Promise<string | null> {
  probe ??= new Promise((resolve) => {
    execFile(bwrap, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', 'true'], { timeout: 10_000 }, (err, _out, stderr) => {
      if (!err) return resolve(null)
      const code = (err as NodeJS.ErrnoException).code
      resolve(code === 'ENOENT' ? 'bubblewrap (bwrap) is not installed' : `bubblewrap cannot create a sandbox here: ${String(stderr).trim() || err.message}`)
    })
  })
  return probe
}
