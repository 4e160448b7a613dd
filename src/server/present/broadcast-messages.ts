// Broadcast message rows as GitLab's Entities::BroadcastMessage.
import type { AppDeps } from '../context.js'
import { isActive, type BroadcastMessageRow } from '../services/broadcast-messages.js'

export const presentBroadcastMessage = (app: AppDeps, r: BroadcastMessageRow) => ({
  id: r.id, message: r.message, starts_at: r.starts_at, ends_at: r.ends_at, color: r.color, font: r.font,
  active: isActive(app, r), target_access_levels: JSON.parse(r.target_access_levels) as number[], target_path: r.target_path,
  broadcast_type: r.broadcast_type, dismissable: r.dismissable === 1, theme: r.theme,
})
