// The pre-receive hook `git http-backend` runs for a push that needs checking: it applies, in order, the checks the
// server prepared from the push's commands. Only a force push's ancestry test needs the pushed objects, so only it is
// left to the hook (git runs it inside the push's quarantine, where `git merge-base` sees the new objects).
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** `deny` refuses the push with `message`; `force` refuses it unless `before` is an ancestor of `after`. */
export interface PushCheck { kind: 'deny' | 'force'; before: string; after: string; message: string }

const CHECKS_ENV = 'COLLAB_PUSH_CHECKS'

/** The environment carrying `checks` to the hook: one `kind before after message` line each. */
export const pushChecksEnv = (checks: PushCheck[]): Record<string, string> =>
  ({ [CHECKS_ENV]: checks.map((c) => `${c.kind} ${c.before} ${c.after} ${c.message.replace(/\s+/g, ' ')}`).join('\n') })

// git shows the hook's stderr as `remote: …` and the refs as `[remote rejected] … (pre-receive hook declined)`.
const HOOK = `#!/bin/sh
# Written by collab serve. Applies the protected-branch checks the server prepared for this push; see COLLAB_PUSH_CHECKS.
printf '%s\\n' "$${CHECKS_ENV}" | while read -r kind before after message; do
  [ -n "$kind" ] || continue
  if [ "$kind" = force ] && git merge-base --is-ancestor "$before" "$after" 2>/dev/null; then continue; fi
  printf 'GitLab: %s\\n' "$message" >&2
  exit 1
done || exit 1
exit 0
`

const installed = new Map<string, Promise<void>>()

/** Writes the hooks directory once per process (again after a failed attempt); an unchanged file is left alone. */
export function installPreReceiveHook(hooksDir: string): Promise<void> {
  let done = installed.get(hooksDir)
  if (!done) {
    done = (async () => {
      await mkdir(hooksDir, { recursive: true, mode: 0o700 })
      const file = join(hooksDir, 'pre-receive')
      if ((await readFile(file, 'utf8').catch(() => null)) !== HOOK) await writeFile(file, HOOK)
      await chmod(file, 0o700)
    })()
    done.catch(() => installed.delete(hooksDir))
    installed.set(hooksDir, done)
  }
  return done
}
