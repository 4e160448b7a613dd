// Broadcast messages (lib/api/broadcast_messages.rb): anyone reads them, administrators schedule them.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { bool, int, isoDate, list, oneOf, str, text } from '../params.js'

export const BroadcastMessage = z.object({
  id: z.number().int(), message: z.string(), starts_at: z.string(), ends_at: z.string(),
  color: z.string().nullable(), font: z.string().nullable(), active: z.boolean(),
  target_access_levels: z.array(z.number().int()), target_path: z.string().nullable(),
  broadcast_type: z.enum(['banner', 'notification']), dismissable: z.boolean(), theme: z.string(),
})

const Id = { id: int() }
const Fields = {
  starts_at: isoDate().optional(), ends_at: isoDate().optional(), color: str().optional(), font: str().optional(),
  target_access_levels: list(int()).optional(), target_path: str().optional(),
  broadcast_type: oneOf(['banner', 'notification'] as const).optional(), dismissable: bool().optional(), theme: str().optional(),
}

export const listBroadcastMessages = defineEndpoint({
  method: 'GET', path: '/broadcast_messages', summary: 'List broadcast messages', auth: 'public', paginated: true,
  responses: { 200: z.array(BroadcastMessage) },
})

export const getBroadcastMessage = defineEndpoint({
  method: 'GET', path: '/broadcast_messages/:id', summary: 'Get a broadcast message', auth: 'public', params: Id,
  responses: { 200: BroadcastMessage },
})

export const createBroadcastMessage = defineEndpoint({
  method: 'POST', path: '/broadcast_messages', summary: 'Create a broadcast message (administrators only)', auth: 'admin',
  input: { message: text(), ...Fields }, responses: { 201: BroadcastMessage },
})

export const updateBroadcastMessage = defineEndpoint({
  method: 'PUT', path: '/broadcast_messages/:id', summary: 'Change a broadcast message (administrators only)', auth: 'admin',
  params: Id, input: { message: text().optional(), ...Fields }, responses: { 200: BroadcastMessage },
})

export const deleteBroadcastMessage = defineEndpoint({
  method: 'DELETE', path: '/broadcast_messages/:id', summary: 'Delete a broadcast message (administrators only)', auth: 'admin',
  params: Id, responses: { 200: BroadcastMessage },
})
