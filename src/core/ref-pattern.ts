// GitLab's protected ref names (`ProtectedBranch#matches?`, ProtectedTag's alike): an exact name, or a simple wildcard
// where each `*` is any run of characters (`/` included). Kept apart from the rules' storage so CI's protected variables
// and the services' permissions match refs the same way.
import { wildcardMatch } from './wildcard.js'

/** The rules whose name matches a ref's short name: protected branches' and protected tags' alike. */
export const matchingRules = <R extends { name: string }>(rules: readonly R[], ref: string) => rules.filter((r) => wildcardMatch(r.name, ref))
