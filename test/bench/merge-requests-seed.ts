// Seeds merge requests straight through the store (the server stopped): 10,000 API creations would each run a merge
// check, minutes of seeding for a benchmark that reads. Every 10th is closed and every 3rd carries the label.
import { closeDatabase, committed, openDatabase, transaction } from '../../src/server/store/db.js'
import { allocateIid, setIssueLabels } from '../../src/server/store/issues.js'
import { insertMergeRequest, updateMergeRequest } from '../../src/server/store/merge-requests.js'

const [dbFile, projectArg, labelArg, countArg] = process.argv.slice(2)
const projectId = Number(projectArg)
const db = openDatabase(dbFile)
transaction(db, () => {
  for (let i = 0; i < Number(countArg); i++) {
    const now = new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString()
    const mr = insertMergeRequest(db, {
      project_id: projectId, iid: allocateIid(db, projectId, 'merge_requests'), source_project_id: projectId,
      source_branch: `seed-${i}`, target_branch: 'master', title: `Merge request ${i}`, description: `Generated merge request ${i}.`,
      author_id: 1, milestone_id: null, force_remove_source_branch: 0, squash: 0, allow_collaboration: 0, created_at: now, updated_at: now,
    })
    updateMergeRequest(db, mr.id, { merge_status: 'can_be_merged', git_merge_status: 'mergeable', ...(i % 10 === 9 ? { state: 'closed' } : {}) })
    if (i % 3 === 0) setIssueLabels(db, mr.id, [Number(labelArg)])
  }
})
await committed(db)
closeDatabase(db)
