// Where collab keeps its data and configuration by default (env-paths), and the layout inside the data directory.
import envPaths from 'env-paths'
import { join } from 'node:path'

const paths = envPaths('collab', { suffix: '' })

export const defaultDataDir = () => paths.data
export const defaultConfigDir = () => paths.config

export interface DataLayout {
  root: string
  database: string
  /** The server's key for secrets stored in the database (`secrets.json`, mode 0600): back it up with the database. */
  secrets: string
  repositories: string
  uploads: string
  /** Job logs, one `<job id>.log` each. */
  traces: string
  /** Job artifacts, `<job id>/artifacts.zip` and `metadata.gz`. */
  artifacts: string
  /** Working directories of jobs the built-in runner is running. */
  builds: string
  /** Package registry files, `<project id>/<package id>/<package file id>`. */
  packages: string
}

export function dataLayout(root: string): DataLayout {
  return {
    root,
    database: join(root, 'collab.db'),
    secrets: join(root, 'secrets.json'),
    repositories: join(root, 'repositories'),
    uploads: join(root, 'uploads'),
    traces: join(root, 'traces'),
    artifacts: join(root, 'artifacts'),
    builds: join(root, 'builds'),
    packages: join(root, 'packages'),
  }
}
