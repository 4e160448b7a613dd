// Project statistics read from the repository on disk.
import type { Project } from '../../../contract/entities/projects.js'
import type { RequestContext } from '../../context.js'
import { countCommits } from '../../git/log.js'
import { directorySize, repositoryDir } from '../../git/repository.js'
import type { ProjectView } from '../../store/projects.js'

export async function projectStatistics(ctx: RequestContext, p: ProjectView): Promise<NonNullable<Project['statistics']>> {
  const dir = repositoryDir(ctx.app.layout.repositories, p.id)
  const repositorySize = await directorySize(dir)
  const commitCount = p.empty_repo || !p.default_branch ? 0 : await countCommits(dir, p.default_branch)
  return {
    commit_count: commitCount,
    storage_size: repositorySize,
    repository_size: repositorySize,
    wiki_size: 0,
    lfs_objects_size: 0,
    job_artifacts_size: 0,
    snippets_size: 0,
    uploads_size: 0,
  }
}
