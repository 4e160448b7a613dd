// Branches, tags and tree entries as GitLab serializes them.
import type { RequestContext } from '../context.js'
import type { TreeItem } from '../git/types.js'
import type { ProjectView } from '../store/projects.js'
import type { BranchView, TagView } from '../services/repository/refs.js'
import { presentCommit } from './commits.js'
import { projectFullPath } from '../../core/project-path.js'

type Urls = Pick<RequestContext, 'baseUrl'>

export const presentBranch = (b: BranchView, p: ProjectView, ctx: Urls) => ({
  name: b.name,
  commit: presentCommit(b.commit, p, ctx),
  merged: b.merged,
  protected: b.protected,
  developers_can_push: b.developersCanPush,
  developers_can_merge: b.developersCanMerge,
  can_push: b.canPush,
  default: b.default,
  web_url: `${ctx.baseUrl}/${projectFullPath(p)}/-/tree/${b.name}`,
})

export const presentTag = (t: TagView, p: ProjectView, ctx: Urls, release?: { tag: string; description: string | null }) => ({
  name: t.tag.name,
  message: t.tag.message ?? '',
  target: t.tag.target,
  commit: presentCommit(t.commit, p, ctx),
  release: release ? { tag_name: release.tag, description: release.description } : null,
  protected: false,
  created_at: t.tag.taggerDate,
})

export const presentTreeItem = (i: TreeItem) => ({ id: i.oid, name: i.name, type: i.type, path: i.path, mode: i.mode })
