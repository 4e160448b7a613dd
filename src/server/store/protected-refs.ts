// Whether a ref is protected, for whoever needs only that answer: CI's protected variables and merge request facts,
// the services' permissions. Who may push, merge or create under the rules stays in services/protected-*.ts.
import { matchingRules } from '../../core/ref-pattern.js'
import type { Db } from './db.js'
import { listProtectedBranches } from './protected-branches.js'
import { listProtectedTags } from './protected-tags.js'

/** `ProtectedBranch.protected?`. */
export const isProtectedBranch = (db: Db, projectId: number, branch: string) => matchingRules(listProtectedBranches(db, projectId), branch).length > 0

/** `ProtectedTag.protected?`. */
export const isProtectedTag = (db: Db, projectId: number, tag: string) => matchingRules(listProtectedTags(db, projectId), tag).length > 0
