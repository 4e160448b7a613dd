// Broadcast message rows as GitLab's Entities::BroadcastMessage.
import type { BroadcastMessageRow } from '../services/instance/broadcast-messages.js'

/** `active`: whether the message shows now (the service's isActive). */
export const presentBroadcastMessage = (r: BroadcastMessageRow, active: boolean) => ({
  id: r.id, message: r.message, starts_at: r.starts_at, ends_at: r.ends_at, color: r.color, font: r.font,
  active, target_access_levels: JSON.parse(r.target_access_levels) as number[], target_path: r.target_path,
  broadcast_type: r.broadcast_type, dismissable: r.dismissable === 1, theme: r.theme,
})
