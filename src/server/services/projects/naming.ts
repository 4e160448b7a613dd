// GitLab's rules for names and paths of users, groups and projects.
const PATH_RE = /^[a-zA-Z0-9_.][a-zA-Z0-9_.-]*$/
const NAME_RE = /^[\p{L}\p{N}\p{Emoji_Presentation}_][\p{L}\p{N}\p{Emoji_Presentation}_.+\- ]*$/u

/** Top-level paths that would shadow our own routes (`/api`, `/groups/…`, `/oauth/token`). */
const RESERVED_TOP_LEVEL = new Set([
  '-', '.well-known', 'admin', 'api', 'assets', 'dashboard', 'explore', 'groups', 'help', 'oauth', 'profile',
  'projects', 'public', 'search', 'snippets', 'uploads', 'users', 'health_check', 'v2',
])

export const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
export const NAME_MESSAGE = "can contain only letters, digits, emojis, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."

export function isValidPath(path: string) {
  return PATH_RE.test(path) && !/\.(git|atom)$/i.test(path) && !path.endsWith('.') && !path.includes('..')
}

export const isValidName = (name: string) => NAME_RE.test(name)

export const isReservedTopLevel = (path: string) => RESERVED_TOP_LEVEL.has(path.toLowerCase())

/**
 * `My Project!` -> `my-project`: lower case, runs of other characters to one dash, no dash or dot at either end.
 * Accents are dropped first (`Café` -> `cafe`), as Rails' parameterize transliterates them.
 */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    // `..` is refused in paths, so a name such as `v2..3` must not generate one.
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/\.(git|atom)$/, '')
}
