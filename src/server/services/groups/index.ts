// The groups domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './group-admin.js'
export * from './groups.js'
