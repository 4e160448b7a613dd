// Path parameters as GitLab expects them: a project or group is an id or its URL-encoded full path.

/** `42` stays `42`; `group/sub/project` becomes `group%2Fsub%2Fproject`. */
export const encodeRef = (ref: string | number): string => encodeURIComponent(String(ref))

export const projectPath = (project: string | number, ...rest: (string | number)[]) =>
  ['projects', encodeRef(project), ...rest.map((part) => String(part))].join('/')
