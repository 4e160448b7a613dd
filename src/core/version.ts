// The package version, inlined at build time (esbuild and vitest both define it).
declare const __COLLAB_VERSION__: string

export const VERSION: string = typeof __COLLAB_VERSION__ === 'string' ? __COLLAB_VERSION__ : '0.0.0-dev'
/** The GitLab release whose v4 API we follow; clients compare this to enable features. */
export const GITLAB_COMPAT_VERSION = '17.0.0'
