// The instance domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './application-settings.js'
export * from './backup.js'
export * from './backup-archive.js'
export * from './backup-restore.js'
export * from './backup-tar.js'
export * from './broadcast-messages.js'
export * from './plan-limits.js'
export * from './settings-rules.js'
