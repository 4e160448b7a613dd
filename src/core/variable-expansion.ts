// `$VAR` and `${VAR}` in a CI variable's value, as GitLab and gitlab-runner read them; the server (variables in
// variables) and the runner (artifact paths) expand with the same rules.

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g

/**
 * `value` with each reference replaced by what `lookup` answers, or by nothing when it answers undefined (the
 * runner's os.Expand knows no other default); `$$` is a literal `$`. Replacements are not read again.
 */
export const expandReferences = (value: string, lookup: (name: string) => string | undefined) =>
  value.replace(REFERENCE, (m, braced: string | undefined, bare: string | undefined) => (m === '$$' ? '$' : lookup((braced ?? bare)!) ?? ''))

/** The names `value` refers to, in order, each once (`$$` refers to none). */
export function referencedNames(value: string): string[] {
  const names = new Set<string>()
  for (const m of value.matchAll(REFERENCE)) if (m[0] !== '$$') names.add((m[1] ?? m[2])!)
  return [...names]
}
