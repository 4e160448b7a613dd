// Push mirrors (GitLab's RemoteMirrors services): who may manage them, the URL split into a bare URL and sealed
// credentials, the create and update rules, and the masking of credentials wherever a mirror's URL or error is shown.
import { CollabError, unauthorized, validationFailed } from '../../../core/errors.js'
import type { MirrorCredentials } from '../../../core/mirror-url.js'
import { userPattern } from '../../../core/re2.js'
import type { RequestContext } from '../../context.js'
import { nowIso } from '../../context.js'
import { effectiveProjectLevel, isAdmin, MAINTAINER } from '../../policy.js'
import type { ProjectView } from '../../store/projects.js'
import * as store from '../../store/remote-mirrors.js'
import type { RemoteMirrorRow } from '../../store/remote-mirrors.js'
import { currentSettings } from '../instance/application-settings.js'
import { findVisibleProject } from '../projects/projects.js'
import { requestMirrorSync } from './remote-mirror-sync.js'
import { checkedAddresses } from '../hooks/webhook-addresses.js'

export interface MirrorInput {
  url?: string
  enabled?: boolean
  auth_method?: 'password' | 'ssh_public_key'
  keep_divergent_refs?: boolean
  only_protected_branches?: boolean
  mirror_branch_regex?: string | null
}

/**
 * `admin_remote_mirror`: Maintainers, and only administrators while the instance's mirror_available is off. GitLab
 * checks it before anything else with `unauthorized!`, so a Developer hears 401, as does anyone on a public project.
 */
export function mirrorsProject(ctx: RequestContext, id: string): ProjectView {
  const project = findVisibleProject(ctx, id)
  if (effectiveProjectLevel(ctx, project) < MAINTAINER) throw unauthorized()
  if (!currentSettings(ctx.app).mirror_available && !isAdmin(ctx)) throw unauthorized()
  return project
}

// ActiveRecord's RecordNotFound, as the API rescues it.
const mirrorMissing = () => new CollabError('REMOTE_MIRROR_NOT_FOUND', '404 Not found', { status: 404 })

export function findMirror(ctx: RequestContext, project: ProjectView, mirrorId: number): RemoteMirrorRow {
  const mirror = store.findRemoteMirror(ctx.app.db, mirrorId)
  if (!mirror || mirror.project_id !== project.id) throw mirrorMissing()
  return mirror
}

export const listMirrors = (ctx: RequestContext, project: ProjectView) =>
  store.listRemoteMirrors(ctx.app.db, project.id, ctx.page.limit, ctx.page.offset)

const blocked = (why: string) => validationFailed({ url: [`is blocked: ${why}`] })

/** The URL without its user information, and that information apart; validated as GitLab's PublicUrlValidator does. */
async function splitUrl(ctx: RequestContext, raw: string): Promise<{ url: string; credentials: MirrorCredentials | null }> {
  let u: URL
  try {
    u = new URL(raw.trim())
  } catch {
    throw blocked('URI is invalid')
  }
  // Only the HTTP transports: collab pushes with the git command line over HTTP(S), never SSH.
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw blocked('Only allowed schemes are http, https')
  if (!u.hostname) throw blocked('URI is invalid')
  const checked = await checkedAddresses(ctx.app, u)
  if ('refusal' in checked) throw blocked(checked.refusal)
  const credentials = u.username || u.password ? { user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : null
  u.username = ''
  u.password = ''
  return { url: u.toString(), credentials }
}

/** GitLab's mirror branch settings: the two filters exclude each other; one given switches the other off. */
function branchSettings(input: MirrorInput, current: Pick<RemoteMirrorRow, 'only_protected_branches' | 'mirror_branch_regex'>) {
  if (input.only_protected_branches !== undefined && input.mirror_branch_regex !== undefined) {
    const error = 'only_protected_branches, mirror_branch_regex are mutually exclusive'
    throw new CollabError('PARAMS_EXCLUSIVE', error, { status: 400, body: { error } })
  }
  const regex = input.mirror_branch_regex === undefined ? current.mirror_branch_regex : input.mirror_branch_regex || null
  if (regex && !userPattern(regex)) throw validationFailed({ mirror_branch_regex: ['not valid RE2 syntax'] })
  if (input.only_protected_branches) return { only_protected_branches: 1, mirror_branch_regex: null }
  if (input.mirror_branch_regex) return { only_protected_branches: 0, mirror_branch_regex: regex }
  return { only_protected_branches: input.only_protected_branches === false ? 0 : current.only_protected_branches, mirror_branch_regex: regex }
}

const flag = (value: boolean | undefined, current: number) => (value === undefined ? current : value ? 1 : 0)

function settings(input: MirrorInput, current: store.MirrorSettings): store.MirrorSettings {
  return {
    enabled: flag(input.enabled, current.enabled),
    auth_method: input.auth_method ?? current.auth_method,
    keep_divergent_refs: flag(input.keep_divergent_refs, current.keep_divergent_refs),
    ...branchSettings(input, current),
  }
}

const DEFAULTS: store.MirrorSettings = { enabled: 0, auth_method: 'password', only_protected_branches: 0, keep_divergent_refs: 0, mirror_branch_regex: null }

export async function createMirror(ctx: RequestContext, project: ProjectView, input: MirrorInput & { url: string }): Promise<RemoteMirrorRow> {
  const fields = settings(input, DEFAULTS)
  const { url, credentials } = await splitUrl(ctx, input.url)
  return store.insertRemoteMirror(ctx.app.db, {
    ...fields, project_id: project.id, url, credentials: credentials && JSON.stringify(credentials), created_at: nowIso(ctx),
  })
}

export function updateMirror(ctx: RequestContext, mirror: RemoteMirrorRow, input: MirrorInput): RemoteMirrorRow {
  store.updateRemoteMirrorSettings(ctx.app.db, mirror.id, { ...settings(input, mirror), updated_at: nowIso(ctx) })
  return store.findRemoteMirror(ctx.app.db, mirror.id)!
}

export const deleteMirror = (ctx: RequestContext, mirror: RemoteMirrorRow) => store.deleteRemoteMirror(ctx.app.db, mirror.id)

/** `RemoteMirrors::SyncService`: a disabled mirror is a 400; an update already running is left to finish. */
export function syncMirror(ctx: RequestContext, mirror: RemoteMirrorRow) {
  if (!mirror.enabled) {
    throw new CollabError('BAD_REQUEST', 'Cannot proceed with the push mirroring. Please verify your mirror configuration.', { status: 400 })
  }
  requestMirrorSync(ctx.app, mirror.id)
}
