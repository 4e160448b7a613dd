// Where a release's pages, sources and direct asset links live (GitLab's ReleasePresenter, Releases::Source and
// Releases::LinkPresenter): one rule for the API's presenters, the Release Hook and the web pages.

/** Releases::Link#link_type: what an asset link points to. */
export const RELEASE_LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const

/** Gitlab::Workhorse::ARCHIVE_FORMATS, in GitLab's order. */
export const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const

const segments = (path: string) => path.split('/').map(encodeURIComponent).join('/')

/** `<project>/-/releases/<tag>`: the tag is one path parameter, its slashes escaped as Rails' url helpers do. */
export const releaseWebUrl = (projectWebUrl: string, tag: string) => `${projectWebUrl}/-/releases/${encodeURIComponent(tag)}`

/** Releases::Source#url: `<project>/-/archive/<tag>/<project path>-<tag with / as ->.<format>`. */
export const releaseSourceUrl = (projectWebUrl: string, projectPath: string, tag: string, format: string) =>
  `${projectWebUrl}/-/archive/${segments(tag)}/${encodeURIComponent(`${projectPath}-${tag.replace(/\//g, '-')}`)}.${format}`

/** `<project>/-/releases/<tag>/downloads<filepath>` for a link with a filepath, else the link's own URL. */
export const directAssetUrl = (projectWebUrl: string, tag: string, link: { url: string; filepath: string | null }) =>
  link.filepath ? `${releaseWebUrl(projectWebUrl, tag)}/downloads${link.filepath}` : link.url

/** Releases::Link#external?: a URL outside the project's web URL. */
export const isExternalLink = (projectWebUrl: string, url: string) => !url.startsWith(projectWebUrl)

/** ReleasePresenter's tag_path. */
export const tagPath = (projectFullPath: string, tag: string) => `/${projectFullPath}/-/tags/${segments(tag)}`
