// Whether bubblewrap can make a sandbox on this machine: the runner tests that need it are skipped where it cannot
// (.ci/run installs it as root).
import { execFileSync } from 'node:child_process'

export const bwrapWorks = (() => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
