// `$VAR` and `${VAR}` in a CI variable's value, as GitLab reads them: the server expands variables in variables (and
// environment names) with them; what it leaves for the runner is expanded there (src/runner/executor/variables.ts).

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g

export interface ExpandOptions {
  /** A reference `lookup` answers undefined for stays as written instead of expanding to nothing (GitLab's keep_undefined). */
  keepUndefined?: boolean
  /** `$$` stays `$$`, for the runner to read as a literal `$`, instead of becoming `$` here. */
  keepEscapes?: boolean
}

/**
 * `value` with each reference replaced by what `lookup` answers, or by nothing when it answers undefined (unless
 * kept); `$$` is a literal `$` (unless kept). Replacements are not read again.
 */
export const expandReferences = (value: string, lookup: (name: string) => string | undefined, opts: ExpandOptions = {}) =>
  value.replace(REFERENCE, (m, braced: string | undefined, bare: string | undefined) => {
    if (m === '$$') return opts.keepEscapes ? m : '$'
    return lookup((braced ?? bare)!) ?? (opts.keepUndefined ? m : '')
  })

/** The names `value` refers to, in order, each once (`$$` refers to none). */
export function referencedNames(value: string): string[] {
  const names = new Set<string>()
  for (const m of value.matchAll(REFERENCE)) if (m[0] !== '$$') names.add((m[1] ?? m[2])!)
  return [...names]
}
