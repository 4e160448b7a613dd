// Where package files live on disk: packages/<project id>/<package id>/<package file id>, named by ids only, so no
// package or file name ever reaches a path.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { AppDeps } from '../../context.js'

type Layout = AppDeps['layout']

export const packageDir = (layout: Layout, projectId: number, packageId: number) => join(layout.packages, String(projectId), String(packageId))

export const packageFilePath = (layout: Layout, f: { projectId: number; packageId: number; fileId: number }) =>
  join(packageDir(layout, f.projectId, f.packageId), String(f.fileId))

/** Removes a deleted project's package files along with its rows. */
export const removeProjectPackages = (app: AppDeps, projectId: number) => rm(join(app.layout.packages, String(projectId)), { recursive: true, force: true })
