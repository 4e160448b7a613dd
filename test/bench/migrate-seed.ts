// Seeds the migration benchmark's source project straight through the store (the server stopped): ISSUES issues
// with a note each (every 10th closed), and a merge request from each `mr-<i>` branch with a note (every 4th closed).
import { closeDatabase, committed, openDatabase, transaction } from '../../src/server/store/db.js'
import { allocateIid, insertIssue } from '../../src/server/store/issues.js'
import { insertMergeRequest, updateMergeRequest } from '../../src/server/store/merge-requests.js'
import { insertNote } from '../../src/server/store/notes.js'

const [dbFile, projectArg, issuesArg, mergeRequestsArg] = process.argv.slice(2)
const projectId = Number(projectArg)
const db = openDatabase(dbFile)
transaction(db, () => {
  for (let i = 0; i < Number(issuesArg); i++) {
    const at = new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString()
    const issue = insertIssue(db, {
      project_id: projectId, iid: allocateIid(db, projectId, 'issues'), title: `Issue ${i}`, description: `Generated issue ${i}.`,
      state: i % 10 === 9 ? 'closed' : 'opened', author_id: 1, milestone_id: null, confidential: 0, discussion_locked: 0, due_date: null,
      created_at: at, updated_at: at,
    })
    insertNote(db, { noteable_id: issue.id, author_id: 1, body: `A note on issue ${i}.`, system: 0, created_at: at, updated_at: at })
  }
  for (let i = 0; i < Number(mergeRequestsArg); i++) {
    const at = new Date(Date.UTC(2024, 1, 1, 0, 0, i)).toISOString()
    const mr = insertMergeRequest(db, {
      project_id: projectId, iid: allocateIid(db, projectId, 'merge_requests'), source_project_id: projectId,
      source_branch: `mr-${i}`, target_branch: 'master', title: `Merge request ${i}`, description: `Generated merge request ${i}.`,
      author_id: 1, milestone_id: null, force_remove_source_branch: 0, squash: 0, allow_collaboration: 0, created_at: at, updated_at: at,
    })
    updateMergeRequest(db, mr.id, { merge_status: 'can_be_merged', git_merge_status: 'mergeable', ...(i % 4 === 3 ? { state: 'closed' } : {}) })
    insertNote(db, { noteable_id: mr.id, author_id: 1, body: `A note on merge request ${i}.`, system: 0, created_at: at, updated_at: at })
  }
})
await committed(db)
closeDatabase(db)
