// Release shapes (GitLab's Entities::Release, BasicReleaseDetails, Releases::Link, Releases::Source, MilestoneWithStats).
import { RELEASE_LINK_TYPES } from '../../core/release-urls.js'
import { z } from 'zod'
import { Milestone } from './issues.js'
import { Commit } from './repository.js'
import { UserBasic } from './users.js'

const int = z.number().int()

export { RELEASE_LINK_TYPES } from '../../core/release-urls.js'

export const ReleaseLink = z.object({
  id: int,
  name: z.string(),
  url: z.string(),
  /** `<project web_url>/-/releases/<tag>/downloads<filepath>` when the link has a filepath, else its url. */
  direct_asset_url: z.string(),
  link_type: z.enum(RELEASE_LINK_TYPES),
  /** False when the url points inside the project (starts with its web_url). */
  external: z.boolean(),
})
export type ReleaseLink = z.infer<typeof ReleaseLink>

/** An archive of the tag's tree: zip, tar.gz, tar.bz2, tar. */
export const ReleaseSource = z.object({ format: z.string(), url: z.string() })

export const ReleaseEvidence = z.object({ sha: z.string(), filepath: z.string(), collected_at: z.string() })

export const MilestoneWithStats = Milestone.extend({ issue_stats: z.object({ total: int, closed: int }) })

/** `GET /groups/:id/releases?simple=true`. */
export const BasicRelease = z.object({
  name: z.string(),
  tag_name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  released_at: z.string().nullable(),
  upcoming_release: z.boolean(),
})
export type BasicRelease = z.infer<typeof BasicRelease>

export const ReleaseLinks = z.object({
  closed_issues_url: z.string().optional(),
  closed_merge_requests_url: z.string().optional(),
  /** Only for callers who may update the release. */
  edit_url: z.string().optional(),
  merged_merge_requests_url: z.string().optional(),
  opened_issues_url: z.string().optional(),
  opened_merge_requests_url: z.string().optional(),
  self: z.string(),
})

/** What a caller who may not read the project's code does not see: commit, commit_path, tag_path, sources, evidences. */
export const Release = BasicRelease.extend({
  /** With `include_html_description=true` only. */
  description_html: z.string().optional(),
  author: UserBasic.optional(),
  commit: Commit.optional(),
  milestones: z.array(MilestoneWithStats).optional(),
  commit_path: z.string().optional(),
  tag_path: z.string().optional(),
  assets: z.object({ count: int, sources: z.array(ReleaseSource).optional(), links: z.array(ReleaseLink) }),
  evidences: z.array(ReleaseEvidence).optional(),
  _links: ReleaseLinks,
})
export type Release = z.infer<typeof Release>
