// A project's repository storage as Entities::ProjectRepositoryStorage shows it.
import type { ProjectRepositoryStorage } from '../../contract/endpoints/project-storage.js'
import type { ProjectView } from '../store/projects.js'

export const presentProjectStorage = (p: ProjectView, storage: { diskPath: string; name: string }): ProjectRepositoryStorage => ({
  disk_path: storage.diskPath, project_id: p.id, repository_storage: storage.name, created_at: p.created_at,
})
