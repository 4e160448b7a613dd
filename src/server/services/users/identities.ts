// Users' external identities (provider + extern_uid), kept by administrators through the users API.
import { CollabError, notFound, validationFailed } from '../../../core/errors.js'
import type { AppDeps, RequestContext } from '../../context.js'
import * as store from '../../store/identities.js'

export interface IdentityParams { provider?: unknown; extern_uid?: unknown }

/** Grape's all_or_none_of :extern_uid, :provider: the pair, or null when neither is given. */
export function identityParams(input: IdentityParams): { provider: string; externUid: string } | null {
  const given = [input.extern_uid, input.provider].filter((v) => v !== undefined).length
  if (given === 1) {
    const error = 'extern_uid, provider provide all or none of parameters'
    throw new CollabError('ALL_OR_NONE', error, { status: 400, body: { error } })
  }
  return given ? { provider: String(input.provider), externUid: String(input.extern_uid) } : null
}

/**
 * Users::UpdateService#assign_identity (and BuildService for a new user): the user's identity at the provider takes
 * the extern_uid, or is added. An extern_uid names one user per provider, as Identity's uniqueness validation says.
 */
export function assignIdentity(app: AppDeps, userId: number, identity: { provider: string; externUid: string }, at: string) {
  const holder = store.findIdentityByExternUid(app.db, identity.provider, identity.externUid)
  if (holder && holder.user_id !== userId) throw validationFailed({ 'identities.extern_uid': ['has already been taken'] })
  store.upsertIdentity(app.db, { user_id: userId, provider: identity.provider, extern_uid: identity.externUid, created_at: at })
}

export const userIdentities = (app: AppDeps, userId: number) => store.listUserIdentities(app.db, userId)

export function deleteIdentity(ctx: RequestContext, userId: number, provider: string) {
  const identity = store.findUserIdentity(ctx.app.db, userId, provider)
  if (!identity) throw notFound('Identity')
  store.deleteIdentity(ctx.app.db, identity.id)
}
