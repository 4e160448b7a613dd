// Pipeline trigger tokens as GitLab serializes them (Entities::Trigger through Ci::TriggerPresenter).
import type { z } from 'zod'
import type { Trigger } from '../../contract/endpoints/pipeline-triggers.js'
import type { RequestContext } from '../context.js'
import { shortTriggerToken } from '../../core/token-prefixes.js'
import type { TriggerRow } from '../store/ci-triggers.js'
import type { UserRow } from '../store/users.js'
import { presentUserBasic } from './users.js'

/** The whole token for its owner; anyone else sees its first four characters after the prefix (short_token). */
export const presentTrigger = (t: TriggerRow, owner: UserRow | null, ctx: RequestContext): z.infer<typeof Trigger> => ({
  id: t.id,
  token: ctx.user !== null && ctx.user.id === t.owner_id ? t.token : shortTriggerToken(t.token),
  description: t.description,
  created_at: t.created_at,
  updated_at: t.updated_at,
  last_used: t.last_used,
  expires_at: t.expires_at,
  owner: owner ? presentUserBasic(owner, ctx) : null,
})
