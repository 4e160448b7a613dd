// What a push may change, decided from its commands before git moves any ref: GitLab's branch and tag checks per ref
// (Gitlab::Checks::SingleChangeAccess). The pre-receive hook applies the result.
import type { PushCheck } from '../../git/pre-receive.js'
import type { PushCommand } from '../../git/push-commands.js'
import type { ProjectView } from '../../store/projects.js'
import { branchPushChecks, projectRules, type Caller } from './protected-branches.js'
import { projectTagRules, tagRefusal } from './protected-tags.js'

export const READ_REFUSALS = {
  // Ours: the command list ended early or was too long to read, so the push cannot be checked.
  unreadable: 'The list of refs in this push could not be read.',
} as const

const deny = (message: string): PushCheck => ({ kind: 'deny', before: '-', after: '-', message })

interface Rules { branches: ReturnType<typeof projectRules>; tags: ReturnType<typeof projectTagRules> }

function commandChecks(ctx: Caller, p: ProjectView, command: PushCommand, rules: Rules): PushCheck[] {
  const { ref } = command
  if (ref.startsWith('refs/heads/')) return branchPushChecks(ctx, p, rules.branches, command, ref.slice('refs/heads/'.length))
  if (ref.startsWith('refs/tags/')) {
    const refusal = tagRefusal(ctx, p, ref.slice('refs/tags/'.length), command, false, rules.tags)
    return refusal ? [deny(refusal)] : []
  }
  // Any other ref (git notes, as semantic-release pushes refs/notes/semantic-release-v1.0.0) takes only the right to
  // push code, checked before receive-pack runs, as GitLab's checks pass it. GitLab's own refs are hidden from
  // receive-pack (git/transport.ts), so git refuses those by itself, per ref, and the rest of the push goes on.
  return []
}

/** The checks a push needs, in order; a `deny` ends them. Empty when nothing can be refused: then no hook runs at all. */
export function pushChecks(ctx: Caller, p: ProjectView, push: { commands: PushCommand[]; complete: boolean }): PushCheck[] {
  if (!push.complete) return [deny(READ_REFUSALS.unreadable)]
  const rules = { branches: projectRules(ctx.app, p), tags: projectTagRules(ctx.app, p) }
  const checks: PushCheck[] = []
  for (const command of push.commands) {
    const more = commandChecks(ctx, p, command, rules)
    checks.push(...more)
    if (more.some((c) => c.kind === 'deny')) break
  }
  return checks
}
