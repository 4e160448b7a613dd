// The pre-receive hook `git http-backend` runs for pushes: it applies the caller's protected-branch policy, handed over in the environment.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/** GitLab's refusals (lib/gitlab/checks/branch_check.rb): git shows them as `remote: GitLab: …`. */
export const PUSH_REFUSALS = {
  push: 'You are not allowed to push code to protected branches on this project.',
  forcePush: 'You are not allowed to force push code to a protected branch on this project.',
  deleteFromWeb: 'You can only delete protected branches using the web interface.',
  deleteNotMaintainer: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.',
  deleteDefault: 'The default branch of a project cannot be deleted.',
} as const

/** What one caller may do to one project's branches; `name` is a rule's branch name or `*` pattern. */
export interface PushPolicy {
  defaultBranch: string | null
  maintainer: boolean
  rules: { name: string; push: boolean; force: boolean }[]
}

/**
 * `ProtectedBranch#matches?`: an exact name, or each `*` any run of characters (`/` included), anchored and
 * case-sensitive. A two-pointer walk rather than a regular expression: a rule with many `*` cannot make it backtrack
 * exponentially. The hook runs this very function (its source is copied into the script), so both agree.
 */
export function globMatch(pattern: string, name: string): boolean {
  let p = 0
  let n = 0
  let star = -1
  let mark = 0
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++
      mark = n
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++
      n++
    } else if (star !== -1) {
      p = star + 1
      n = ++mark
    } else {
      return false
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++
  return p === pattern.length
}

export const PUSH_POLICY_ENV = 'COLLAB_PUSH_POLICY'
export const HOOK_NODE_ENV = 'COLLAB_NODE'

// The checks run in order for each pushed ref; the first refusal rejects the whole push, as GitLab's does.
// A force push is an update whose old head is not an ancestor of the new one; the new objects are
// visible to `git merge-base` here because git runs the hook inside the push's quarantine.
const HOOK_SCRIPT = `'use strict'
// Written by collab serve; rewritten at start-up. Do not edit.
const { execFileSync } = require('node:child_process')
const { readFileSync } = require('node:fs')
const policy = JSON.parse(process.env.${PUSH_POLICY_ENV} || 'null')
if (!policy) process.exit(0)
const M = ${JSON.stringify(PUSH_REFUSALS)}
const ZERO = /^0+$/
const globMatch = (${globMatch.toString()})
function isAncestor(a, b) {
  try { execFileSync('git', ['merge-base', '--is-ancestor', a, b], { stdio: 'ignore' }); return true } catch { return false }
}
function refusal(oldSha, newSha, ref) {
  if (!ref.startsWith('refs/heads/')) return null
  const branch = ref.slice('refs/heads/'.length)
  const deletion = ZERO.test(newSha)
  if (deletion && branch === policy.defaultBranch) return M.deleteDefault
  const matching = policy.rules.filter((r) => globMatch(r.name, branch))
  if (!matching.length) return null
  if (!deletion && !ZERO.test(oldSha) && !matching.some((r) => r.force) && !isAncestor(oldSha, newSha)) return M.forcePush
  if (deletion) return policy.maintainer ? M.deleteFromWeb : M.deleteNotMaintainer
  return matching.some((r) => r.push) ? null : M.push
}
for (const line of readFileSync(0, 'utf8').split('\\n')) {
  const [oldSha, newSha, ref] = line.trim().split(' ')
  if (!ref) continue
  const why = refusal(oldSha, newSha, ref)
  if (why) {
    process.stderr.write('GitLab: ' + why + '\\n')
    process.exit(1)
  }
}
`

// git runs hooks through the shell; the script itself runs on the server's own node.
const HOOK_WRAPPER = `#!/bin/sh
exec "$${HOOK_NODE_ENV}" "$(dirname "$0")/pre-receive.cjs"
`

const installed = new Map<string, Promise<void>>()

async function writeIfChanged(file: string, content: string, mode: number) {
  const old = await readFile(file, 'utf8').catch(() => null)
  if (old !== content) await writeFile(file, content)
  await chmod(file, mode)
}

/** Writes the hooks directory once per process (and again if a previous attempt failed). */
export function installPreReceiveHook(hooksDir: string): Promise<void> {
  let done = installed.get(hooksDir)
  if (!done) {
    done = (async () => {
      await mkdir(hooksDir, { recursive: true, mode: 0o700 })
      await writeIfChanged(join(hooksDir, 'pre-receive.cjs'), HOOK_SCRIPT, 0o600)
      await writeIfChanged(join(hooksDir, 'pre-receive'), HOOK_WRAPPER, 0o700)
    })()
    done.catch(() => installed.delete(hooksDir))
    installed.set(hooksDir, done)
  }
  return done
}
