// Releases and their asset links as GitLab serializes them (Entities::Release, ReleasePresenter, Releases::LinkPresenter).
import type { BasicRelease, Release, ReleaseLink } from '../../contract/entities/releases.js'
import type { RequestContext } from '../context.js'
import type { CommitInfo } from '../git/types.js'
import type { MilestoneRow } from '../store/milestones.js'
import type { ProjectView } from '../store/projects.js'
import type { ReleaseLinkRow, ReleaseRow } from '../store/releases.js'
import type { UserRow } from '../store/users.js'
import { presentCommit } from './commits.js'
import { presentMilestone } from './issues.js'
import { projectFullPath } from '../../core/project-path.js'
import { presentUserBasic } from './users.js'
import { directAssetUrl, isExternalLink, releaseSourceUrl, releaseWebUrl, SOURCE_FORMATS, tagPath } from '../../core/release-urls.js'

type Urls = Pick<RequestContext, 'baseUrl' | 'apiUrl'>

export const projectWebUrl = (p: ProjectView, ctx: Pick<Urls, 'baseUrl'>) => `${ctx.baseUrl}/${projectFullPath(p)}`

export function presentReleaseLink(l: ReleaseLinkRow, tag: string, p: ProjectView, ctx: Pick<Urls, 'baseUrl'>): ReleaseLink {
  return {
    id: l.id,
    name: l.name,
    url: l.url,
    direct_asset_url: directAssetUrl(projectWebUrl(p, ctx), tag, l),
    link_type: l.link_type,
    external: isExternalLink(projectWebUrl(p, ctx), l.url),
  }
}

/** Everything a release shows besides its row, read by the service; what the caller may see decides what is there. */
export interface ReleaseView {
  row: ReleaseRow
  project: ProjectView
  author: UserRow | undefined
  /** Null when the commit is gone from the repository. */
  commit: CommitInfo | null
  links: ReleaseLinkRow[]
  milestones: { milestone: MilestoneRow; stats: { total: number; closed: number } }[]
  /** GitLab's read_code: commit, paths, sources and evidences are only for those who may read the code. */
  canReadCode: boolean
  canReadMilestones: boolean
  canUpdate: boolean
  /** The clock's ISO time (a release dated later is upcoming) and its day (a milestone due before it has expired). */
  now: string
  today: string
  descriptionHtml?: string
}

/** ReleasePresenter#name: a caller who may not read the code sees no tag-derived name. */
const nameOf = (v: Pick<ReleaseView, 'row' | 'canReadCode'>) => (v.canReadCode ? v.row.name ?? v.row.tag : `Release-${v.row.id}`)

export const presentBasicRelease = (v: Pick<ReleaseView, 'row' | 'canReadCode' | 'now'>): BasicRelease => ({
  name: nameOf(v),
  tag_name: v.row.tag,
  description: v.row.description,
  created_at: v.row.created_at,
  released_at: v.row.released_at,
  upcoming_release: v.row.released_at > v.now,
})

function releaseLinks(v: ReleaseView, ctx: Urls): Release['_links'] {
  const web = projectWebUrl(v.project, ctx)
  const query = (state: string) => `release_tag=${encodeURIComponent(v.row.tag)}&scope=all&state=${state}`
  const self = releaseWebUrl(web, v.row.tag)
  return {
    closed_issues_url: `${web}/-/issues?${query('closed')}`,
    closed_merge_requests_url: `${web}/-/merge_requests?${query('closed')}`,
    ...(v.canUpdate ? { edit_url: `${self}/edit` } : {}),
    merged_merge_requests_url: `${web}/-/merge_requests?${query('merged')}`,
    opened_issues_url: `${web}/-/issues?${query('opened')}`,
    opened_merge_requests_url: `${web}/-/merge_requests?${query('opened')}`,
    self,
  }
}

export function presentRelease(v: ReleaseView, ctx: Urls): Release {
  const p = v.project
  const code = v.canReadCode
  const links = v.links.map((l) => presentReleaseLink(l, v.row.tag, p, ctx))
  const sha = v.commit?.id ?? v.row.sha
  const out: Release = {
    ...presentBasicRelease(v),
    ...(v.descriptionHtml !== undefined ? { description_html: v.descriptionHtml } : {}),
    ...(v.author ? { author: presentUserBasic(v.author, ctx) } : {}),
    ...(code && v.commit ? { commit: presentCommit(v.commit, p, ctx) } : {}),
    ...(v.milestones.length && v.canReadMilestones ? {
      milestones: v.milestones.map(({ milestone, stats }) => ({ ...presentMilestone(milestone, projectFullPath(p), v.today, ctx), issue_stats: stats })),
    } : {}),
    ...(code && sha ? { commit_path: `/${projectFullPath(p)}/-/commit/${sha}` } : {}),
    ...(code ? { tag_path: tagPath(projectFullPath(p), v.row.tag) } : {}),
    assets: {
      count: links.length + (code ? SOURCE_FORMATS.length : 0),
      ...(code ? { sources: SOURCE_FORMATS.map((format) => ({ format, url: releaseSourceUrl(projectWebUrl(p, ctx), p.path, v.row.tag, format) })) } : {}),
      links,
    },
    ...(code ? { evidences: [] } : {}),
    _links: releaseLinks(v, ctx),
  }
  return out
}
