// GitLab's access levels (compat-notes §2.1): what a member may do in a project or group, by number.
export const GUEST = 10
export const REPORTER = 20
export const DEVELOPER = 30
export const MAINTAINER = 40
export const OWNER = 50

export const ACCESS_LEVELS = { guest: GUEST, reporter: REPORTER, developer: DEVELOPER, maintainer: MAINTAINER, owner: OWNER } as const
