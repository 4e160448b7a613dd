// Where collab keeps its data and configuration by default (env-paths), and the layout inside the data directory.
import envPaths from 'env-paths'
import { join } from 'node:path'

const paths = envPaths('collab', { suffix: '' })

export const defaultDataDir = () => paths.data
export const defaultConfigDir = () => paths.config

export interface DataLayout {
  root: string
  database: string
  repositories: string
  uploads: string
}

export function dataLayout(root: string): DataLayout {
  return {
    root,
    database: join(root, 'collab.db'),
    repositories: join(root, 'repositories'),
    uploads: join(root, 'uploads'),
  }
}
