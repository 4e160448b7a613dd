// core/job-status's sets as SQL lists, so that statements filter by the very sets the services and pages test with.
import { CANCELABLE_STATUSES, COMPLETED_STATUSES, FINISHED_STATUSES } from '../../core/job-status.js'

// The statuses are fixed words of ours, never input, so they are spelled into the SQL (one cached statement each).
const sqlList = (statuses: ReadonlySet<string>) => `(${[...statuses].map((s) => `'${s}'`).join(', ')})`

export const SQL_COMPLETED = sqlList(COMPLETED_STATUSES)
export const SQL_FINISHED = sqlList(FINISHED_STATUSES)
export const SQL_CANCELABLE = sqlList(CANCELABLE_STATUSES)
