// GitLab 17's token prefixes: a token says what kind it is, so secret scanners and our own auth can tell them apart.

/** Runner authentication tokens (glrt-), answered once when a runner is created. */
export const RUNNER_TOKEN_PREFIX = 'glrt-'

/** CI job tokens (glcbt-, Ci::Build::TOKEN_PREFIX), valid while their job runs. */
export const JOB_TOKEN_PREFIX = 'glcbt-'

/** Pipeline trigger tokens (glptt-, Ci::Trigger::TRIGGER_TOKEN_PREFIX). */
export const TRIGGER_TOKEN_PREFIX = 'glptt-'

/** What a trigger token shows to anyone but its owner: four characters after the prefix, as GitLab's `short_token`. */
export const shortTriggerToken = (token: string) =>
  token.slice(token.startsWith(TRIGGER_TOKEN_PREFIX) ? TRIGGER_TOKEN_PREFIX.length : 0).slice(0, 4)
