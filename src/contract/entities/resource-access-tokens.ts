// A project or group access token as GitLab's Entities::ResourceAccessToken shows it: a personal access token of the
// resource's bot user, with the bot's role and the resource it serves.
import { z } from 'zod'
import { PersonalAccessToken } from './users.js'

export const ResourceAccessToken = PersonalAccessToken.omit({ impersonation: true, token: true }).extend({
  description: z.string().nullable(),
  access_level: z.number().int().nullable(),
  resource_type: z.enum(['project', 'group']),
  resource_id: z.number().int(),
})

export const ResourceAccessTokenWithToken = ResourceAccessToken.extend({ token: z.string() })

export type ResourceAccessToken = z.infer<typeof ResourceAccessToken>
