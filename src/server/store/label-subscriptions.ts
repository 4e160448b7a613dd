// Label subscriptions: a row per subscriber of a project label.
import { stmt, write, type Db } from './db.js'

export const isSubscribedToLabel = (db: Db, labelId: number, userId: number) =>
  stmt(db, 'SELECT 1 FROM label_subscriptions WHERE label_id = ? AND user_id = ?').get(labelId, userId) !== undefined

/** Whether a row was added (false: already subscribed). */
export const subscribeToLabel = (db: Db, labelId: number, userId: number) =>
  write(db, 'label_subscriptions', 'INSERT OR IGNORE INTO label_subscriptions (label_id, user_id) VALUES (?, ?)').run(labelId, userId).changes > 0

/** Whether a row was removed (false: was not subscribed). */
export const unsubscribeFromLabel = (db: Db, labelId: number, userId: number) =>
  write(db, 'label_subscriptions', 'DELETE FROM label_subscriptions WHERE label_id = ? AND user_id = ?').run(labelId, userId).changes > 0
