// A project's full path (`group/subgroup/project`), the name URLs, references and hooks use for it.
export const projectFullPath = (p: { ns_full_path: string; path: string }) => `${p.ns_full_path}/${p.path}`
