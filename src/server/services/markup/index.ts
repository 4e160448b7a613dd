// The markup domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './avatars.js'
export * from './markdown.js'
export * from './markdown-api.js'
export * from './search.js'
export * from './templates.js'
export * from './uploads.js'
