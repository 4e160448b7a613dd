// The snippets domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './snippet-files.js'
export * from './snippets.js'
