// GitLab's simple wildcards (webhook branch filters, broadcast message target paths): `*` stands for any run of
// characters, everything else for itself, and the pattern must match the whole text.
export const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`)
