// The releases domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './package-files.js'
export * from './packages.js'
export * from './release-access.js'
export * from './release-hooks.js'
export * from './release-links.js'
export * from './releases.js'
