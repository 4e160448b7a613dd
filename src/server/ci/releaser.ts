// The `release` step of a job with `release:` (GitLab's Gitlab::Ci::Build::Releaser): one `collab release create`
// run by the job's shell after its script, with the job token, as GitLab 18 runs `glab release create`. Values are
// put in double quotes, so the shell expands `$VARIABLES` in them as GitLab's script does.
import type { JobRelease } from './plan-types.js'

/**
 * Double-quoted for sh with `$` left live: `"`, `\` and backquotes are escaped, so a description's quotes and
 * markdown code spans stay text (GitLab's script breaks on the first, and runs the second as a command).
 */
const live = (text: string) => `"${text.replace(/[\\"`]/g, '\\$&')}"`

/** The command lines of the step: tag and ref default to the pipeline's tag and commit, as GitLab's do. */
export function releaseScript(release: JobRelease): string[] {
  const args = ['collab release create', live(release.tag_name || '$CI_COMMIT_TAG')]
  if (release.assets?.links.length) args.push('--assets-links', live(JSON.stringify(release.assets.links)))
  if (release.milestones?.length) args.push('--milestone', live(release.milestones.join(',')))
  if (release.name) args.push('--name', live(release.name))
  // A description naming a file of the clone (`./CHANGELOG.md`) is read from it; any other text is the notes.
  if (release.description) args.push('--notes-text-or-file', live(release.description))
  args.push('--ref', live(release.ref || '$CI_COMMIT_SHA'))
  if (release.tag_message) args.push('--tag-message', live(release.tag_message))
  if (release.released_at) args.push('--released-at', live(release.released_at))
  args.push('--no-update', '--no-close-milestone', '--host "$CI_SERVER_URL"', '-p "$CI_PROJECT_ID"')
  return [args.join(' ')]
}
