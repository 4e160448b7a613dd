// Projects: resolving `:id`, visibility-aware reads and lists, create, edit and delete.
import { randomBytes } from 'node:crypto'
import type { ProjectSettingsInput } from '../../../contract/endpoints/projects.js'
import { conflict, CollabError, forbidden, notFound, validationFailed } from '../../../core/errors.js'
import { parseIdOrPath } from '../../../contract/params.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { forgetCache, readBranch } from '../../git/read.js'
import { commitActions, setHead } from '../../git/write.js'
import { initRepository, removeRepository, repositoryDir } from '../../git/repository.js'
import { wikiDir } from '../../git/wiki.js'
import { eraseJobFiles } from '../../ci/lifecycle-actions.js'
import { removeArchiveCache } from '../../git/archive-cache.js'
import { canCreateProjectIn, canReadProject, isExternal, openVisibilities, DEVELOPER, effectiveProjectLevel, groupLevel, isAdmin, MAINTAINER, OWNER, REPORTER, requireProjectLevel } from '../../policy.js'
import type { ProjectBundle } from '../../present/projects.js'
import { projectJobIds } from '../../store/ci-jobs.js'
import { insertMember } from '../../store/members.js'
import { findNamespaceById, findUserNamespace, type NamespaceRow } from '../../store/namespaces.js'
import { listAttributes } from '../../store/custom-attributes.js'
import { countOpenIssues } from '../../store/issues.js'
import * as store from '../../store/projects.js'
import { signatureOf } from '../repository/repository.js'
import { findUserById } from '../../store/users.js'
import { currentSettings, requireProjectLimit, requireVisibilityAllowed } from '../instance/application-settings.js'
import { isValidName, isValidPath, NAME_MESSAGE, PATH_MESSAGE, pathFromName } from './naming.js'
import { defaultIn, requireAllowedInNamespace } from './visibility.js'
import { protectDefaultBranch } from '../repository/protected-branches.js'
import { projectStatistics } from './statistics.js'
import { committed, transaction } from '../../store/db.js'
import { jobTokenAllowed } from '../../store/ci-job-token-scope.js'
import { emitProjectSystemEvent } from '../hooks/webhook-system-events.js'
import { emitHookEvent } from '../hooks/webhook-events.js'
import { announceClosed, closeMergeRequestsFromFork } from '../merge-requests/fork-merge-requests.js'
import { removeProjectUploads } from '../markup/uploads.js'
import { removeProjectPackages } from '../releases/package-files.js'
import { retireBots } from '../../store/resource-access-tokens.js'

export const projectNotFound = () => notFound('Project')

/** A project the caller may see, by id or full path; anything else is 404 so private projects stay invisible. */
export function findVisibleProject(ctx: RequestContext, ref: string | number): store.ProjectView {
  const key = parseIdOrPath(ref)
  const project = 'id' in key ? store.findProjectById(ctx.app.db, key.id) : store.findProjectByPath(ctx.app.db, key.path)
  if (!project || !canReadProject(ctx, project)) throw projectNotFound()
  // A job token reaches its own project, and others whose inbound job token scope lets its project in (GitLab 17).
  if (ctx.job && !jobTokenAllowed(ctx.app.db, ctx.job.project_id, project.id)) throw projectNotFound()
  return project
}

export interface BundleOptions { statistics?: boolean; customAttributes?: boolean }

export async function bundle(ctx: RequestContext, row: store.ProjectView, opts: BundleOptions = {}): Promise<ProjectBundle> {
  const db = ctx.app.db
  const direct = ctx.user ? store.directProjectLevel(db, ctx.user.id, row.id) : null
  const viaGroup = ctx.user && row.ns_kind === 'group' ? groupLevel(ctx, { id: row.namespace_id }) || null : null
  const forkedFrom = row.forked_from_id !== null && ctx.user ? store.findProjectById(db, row.forked_from_id) : undefined
  const level = effectiveProjectLevel(ctx, row)
  return {
    row,
    forkedFrom: forkedFrom && canReadProject(ctx, forkedFrom) ? forkedFrom : undefined,
    projectAccess: direct,
    groupAccess: viaGroup,
    viewerLevel: level,
    openIssuesCount: countOpenIssues(db, row.id, level >= REPORTER),
    statistics: opts.statistics && level >= REPORTER ? await projectStatistics(ctx, row) : undefined,
    customAttributes: opts.customAttributes && isAdmin(ctx) ? listAttributes(db, 'project', row.id) : undefined,
  }
}

export type ListInput = Omit<store.ProjectFilters, 'viewer' | 'admin' | 'open' | 'limit' | 'offset' | 'orderBy' | 'sort'> & {
  orderBy?: store.ProjectFilters['orderBy']
  sort?: store.ProjectFilters['sort']
}

export function listProjects(ctx: RequestContext, f: ListInput) {
  const anonymousOnlyFilter = !ctx.user && (f.owned || f.membership || f.starred || f.minAccessLevel !== undefined)
  return store.listProjects(ctx.app.db, {
    ...f,
    customAttributes: isAdmin(ctx) ? f.customAttributes : undefined,
    none: anonymousOnlyFilter || f.none,
    viewer: ctx.user?.id ?? null,
    admin: isAdmin(ctx),
    open: openVisibilities(ctx),
    orderBy: f.orderBy ?? 'created_at',
    sort: f.sort ?? 'desc',
    limit: ctx.page.limit,
    offset: ctx.page.offset,
  })
}

const BOOL_SETTINGS = [
  'issues_enabled', 'merge_requests_enabled', 'jobs_enabled', 'wiki_enabled', 'snippets_enabled', 'resolve_outdated_diff_discussions',
  'container_registry_enabled', 'shared_runners_enabled', 'public_jobs', 'only_allow_merge_if_pipeline_succeeds',
  'only_allow_merge_if_all_discussions_are_resolved', 'lfs_enabled', 'request_access_enabled', 'printing_merge_request_link_enabled',
] as const

/** API settings to column values; `tag_list`/`topics` are one list, `builds_access_level` is jobs_enabled's newer name. */
export function settingsToColumns(input: ProjectSettingsInput & { archived?: boolean }): store.ProjectPatch {
  const patch: store.ProjectPatch = {}
  for (const k of BOOL_SETTINGS) if (input[k] !== undefined) patch[k] = input[k] ? 1 : 0
  if (input.builds_access_level !== undefined) patch.jobs_enabled = input.builds_access_level === 'disabled' ? 0 : 1
  if (input.archived !== undefined) patch.archived = input.archived ? 1 : 0
  if (input.description !== undefined) patch.description = input.description
  if (input.visibility !== undefined) patch.visibility = input.visibility
  if (input.import_url !== undefined) patch.import_url = input.import_url
  if (input.merge_method !== undefined) patch.merge_method = input.merge_method
  if (input.ci_config_path !== undefined) patch.ci_config_path = input.ci_config_path || null
  const tags = input.topics ?? input.tag_list
  if (tags !== undefined) patch.tag_list = JSON.stringify([...new Set(tags.map((t) => t.trim()).filter(Boolean))])
  return patch
}

function checkNameAndPath(name: string, path: string) {
  const errors: Record<string, string[]> = {}
  if (!name.trim() || !isValidName(name)) errors.name = [name.trim() ? NAME_MESSAGE : "can't be blank"]
  if (!isValidPath(path)) errors.path = [path ? PATH_MESSAGE : "can't be blank"]
  if (Object.keys(errors).length) throw validationFailed(errors)
}

export function checkNameFree(ctx: RequestContext, namespaceId: number, name: string, path: string, exceptId?: number) {
  const taken = store.findProjectInNamespace(ctx.app.db, namespaceId, name, path).filter((p) => p.id !== exceptId)
  if (!taken.length) return
  const errors: Record<string, string[]> = {}
  if (taken.some((p) => p.name.toLowerCase() === name.toLowerCase())) errors.name = ['has already been taken']
  if (taken.some((p) => p.path.toLowerCase() === path.toLowerCase())) errors.path = ['has already been taken']
  throw conflict('409 Conflict', { message: errors })
}

export function resolveNamespace(ctx: RequestContext, namespaceId: number | undefined, ownerId: number): NamespaceRow {
  const ns = namespaceId !== undefined ? findNamespaceById(ctx.app.db, namespaceId) : findUserNamespace(ctx.app.db, ownerId)
  if (!ns) throw notFound('Namespace')
  return ns
}

export interface CreateInput extends ProjectSettingsInput { name?: string; path?: string; namespace_id?: number }

/** Creates the row, the creator's membership and the bare repository; the repository is removed again if the row fails. */
export async function createProject(ctx: RequestContext, input: CreateInput, ownerId = ctx.user!.id): Promise<store.ProjectView> {
  if (input.name === undefined && input.path === undefined) throw new CollabError('MISSING_ATTRIBUTE', '400 (Bad request) "name" not given', { status: 400 })
  const name = input.name ?? input.path!
  const path = input.path ?? pathFromName(name)
  checkNameAndPath(name, path)
  const ns = resolveNamespace(ctx, input.namespace_id, ownerId)
  // GitLab keeps an external user's projects_limit at 0; the API answers that limit_reached error with 403.
  if (ns.kind === 'user' && ns.owner_id === ctx.user?.id && isExternal(ctx)) {
    throw new CollabError('PROJECT_LIMIT_REACHED', 'Personal project creation is not allowed',
      { status: 403, body: { message: ['Personal project creation is not allowed. Please contact your administrator with questions'] } })
  }
  if (!canCreateProjectIn(ctx, ns) && !(isAdmin(ctx) && ns.owner_id === ownerId)) throw notFound('Namespace')
  checkNameFree(ctx, ns.id, name, path)
  const visibility = input.visibility ?? defaultIn(ns, currentSettings(ctx.app).default_project_visibility)
  requireVisibilityAllowed(ctx, visibility)
  requireAllowedInNamespace(ns, visibility)
  if (ns.kind === 'user') requireProjectLimit(ns, findUserById(ctx.app.db, ns.owner_id!), store.countProjectsInNamespace(ctx.app.db, ns.id))
  const at = nowIso(ctx)
  // GitLab 14+: the instance's default_branch_name, else `main` (Gitlab::DefaultBranch.value).
  const defaultBranch = input.default_branch || ns.default_branch || currentSettings(ctx.app).default_branch_name?.trim() || 'main'
  const db = ctx.app.db
  const id = transaction(db, () => {
    const projectId = store.insertProject(db, {
      namespace_id: ns.id, name, path, description: input.description ?? '', default_branch: defaultBranch,
      visibility, creator_id: ctx.user!.id, created_at: at, updated_at: at, last_activity_at: at,
      archived: 0, issues_enabled: 1, merge_requests_enabled: 1, jobs_enabled: 1, wiki_enabled: 1, snippets_enabled: 1,
      container_registry_enabled: 1, resolve_outdated_diff_discussions: 0, shared_runners_enabled: 1, lfs_enabled: 1, public_jobs: 1,
      only_allow_merge_if_pipeline_succeeds: 0, only_allow_merge_if_all_discussions_are_resolved: 0, request_access_enabled: 1,
      printing_merge_request_link_enabled: 1, merge_method: 'merge', ci_config_path: null, import_url: null, import_status: 'none',
      import_error: null, forked_from_id: null, tag_list: '[]', runners_token: 'GR1348941' + randomBytes(10).toString('hex'),
      ...settingsToColumns(input),
    })
    // Personal projects belong to their owner; in a group the creator maintains it unless the group already grants more.
    const level = ns.kind === 'user' ? OWNER : MAINTAINER
    insertMember(db, { kind: 'project', id: projectId, namespaceId: ns.id }, { user_id: ns.kind === 'user' ? ns.owner_id! : ctx.user!.id, access_level: level, created_at: at, expires_at: null })
    return projectId
  })
  const dir = repositoryDir(ctx.app.layout.repositories, id)
  try {
    await initRepository(dir, defaultBranch)
    if (input.initialize_with_readme) {
      const signature = signatureOf(ctx)
      await commitActions(dir, {
        branch: defaultBranch, message: 'Initial commit', author: signature, committer: signature,
        actions: [{ action: 'create', filePath: 'README.md', content: Buffer.from(`# ${name}\n\n${input.description ?? ''}`.trimEnd() + '\n') }],
      })
      store.updateProject(db, id, { empty_repo: 0 })
      protectDefaultBranch(ctx.app, { id }, defaultBranch)
    }
  } catch (err) {
    transaction(db, () => store.deleteProjectRow(db, id))
    await removeRepository(dir)
    throw err
  }
  const project = store.findProjectById(db, id)!
  emitProjectSystemEvent(ctx.app, 'project_create', project, ctx.user!)
  emitHookEvent(ctx.app, { kind: 'project', action: 'create', projectId: id, userId: ctx.user!.id })
  return project
}

export type EditInput = ProjectSettingsInput & { name?: string; path?: string; archived?: boolean }

export async function editProject(ctx: RequestContext, project: store.ProjectView, input: EditInput) {
  requireProjectLevel(ctx, project, MAINTAINER)
  if ((input.visibility !== undefined && input.visibility !== project.visibility) || input.archived !== undefined) requireProjectLevel(ctx, project, OWNER)
  if (input.visibility !== undefined && input.visibility !== project.visibility) {
    requireVisibilityAllowed(ctx, input.visibility)
    requireAllowedInNamespace(findNamespaceById(ctx.app.db, project.namespace_id)!, input.visibility)
  }
  const name = input.name ?? project.name
  const path = input.path ?? project.path
  if (input.name !== undefined || input.path !== undefined) {
    checkNameAndPath(name, path)
    checkNameFree(ctx, project.namespace_id, name, path, project.id)
  }
  const patch: store.ProjectPatch = { ...settingsToColumns(input), updated_at: nowIso(ctx) }
  if (input.name !== undefined) patch.name = name
  if (input.path !== undefined) patch.path = path
  if (input.default_branch !== undefined && input.default_branch !== project.default_branch) {
    const gitdir = repositoryDir(ctx.app.layout.repositories, project.id)
    // An empty repository takes any name (its first push decides); otherwise the branch must exist, and HEAD follows it.
    if (!project.empty_repo) {
      if (!(await readBranch(gitdir, input.default_branch))) throw validationFailed({ base: [`Could not set the default branch: ${input.default_branch} does not exist`] })
      await setHead(gitdir, input.default_branch)
    }
    patch.default_branch = input.default_branch
  }
  store.updateProject(ctx.app.db, project.id, patch)
  return store.findProjectById(ctx.app.db, project.id)!
}

export async function deleteProject(ctx: RequestContext, project: store.ProjectView) {
  requireProjectLevel(ctx, project, OWNER)
  const jobIds = projectJobIds(ctx.app.db, project.id)
  const closed = transaction(ctx.app.db, () => {
    const mrs = closeMergeRequestsFromFork(ctx, project)
    retireBots(ctx.app.db, { kind: 'project', id: project.id })
    store.deleteProjectRow(ctx.app.db, project.id)
    return mrs
  })
  // The repository goes only once the row's deletion is saved: if the group COMMIT fails, this throws and both stay.
  await committed(ctx.app.db)
  announceClosed(ctx, closed)
  const gitdir = repositoryDir(ctx.app.layout.repositories, project.id)
  await removeRepository(gitdir)
  // A later project may get the same id, and so the same directory: nothing read from this one may answer for it.
  forgetCache(gitdir)
  const wiki = wikiDir(ctx.app.layout.repositories, project.id)
  await removeRepository(wiki)
  forgetCache(wiki)
  // So do its files outside the repositories: ids are handed out again.
  await eraseJobFiles(ctx.app, jobIds)
  await removeArchiveCache(ctx.app.layout.root, project.id)
  await removeProjectUploads(ctx.app, project.id)
  await removeProjectPackages(ctx.app, project.id)
  emitProjectSystemEvent(ctx.app, 'project_destroy', project, ctx.user!)
}

export function requireCanPush(ctx: RequestContext, project: store.ProjectView) {
  if (project.archived) throw forbidden('Project is archived')
  requireProjectLevel(ctx, project, DEVELOPER)
}

export const listUsersOf = (ctx: RequestContext, p: store.ProjectView, f: { search?: string; skip?: number[] }) =>
  store.listProjectUsers(ctx.app.db, p.id, p.namespace_id, { ...f, limit: ctx.page.limit, offset: ctx.page.offset })

export const listStarrersOf = (ctx: RequestContext, p: store.ProjectView, search?: string) =>
  store.listStarrers(ctx.app.db, p.id, { search, limit: ctx.page.limit, offset: ctx.page.offset })
