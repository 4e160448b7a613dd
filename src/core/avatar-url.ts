// Where a user's avatar lives (GitLab's avatar_url): one rule for the API's presenters, webhook payloads and the
// avatar route itself.

/** The file name of the identicon collab draws for a user without an avatar (never an uploadable name: svg is refused). */
export const IDENTICON_NAME = 'identicon.svg'

/**
 * A user's avatar, or else the identicon collab serves itself at the same place: never null, as clients such as the
 * GitLab MCP server require a string, and never a third-party URL (GitLab falls back to its own default avatar too).
 */
export const userAvatarUrl = (baseUrl: string, u: { id: number; avatar_path: string | null }) =>
  `${baseUrl}/uploads/-/system/user/avatar/${u.id}/${encodeURIComponent(u.avatar_path ?? IDENTICON_NAME)}`
