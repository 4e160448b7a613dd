// The wikis domain as handlers and pages see it: they import this file, never a module behind it (.dependency-cruiser.cjs).
export * from './wikis.js'
export * from './wikis-attachments.js'
export * from './wikis-git.js'
