// Issue references in text, read one way for every feature that looks for them (closing issues from merge requests
// and commits, related merge requests): `#N`, `path#N` and an issue's URL.
import { projectFullPath } from '../../../core/project-path.js'
import type { Db } from '../../store/db.js'
import { findIssueByIid } from '../../store/issues.js'
import { findProjectByPath, type ProjectView } from '../../store/projects.js'

/** A reference as written: the project path it names, if any (a full path, or a project's path in the writer's namespace). */
export interface IssueReference { path: string | undefined; iid: number }

// The host of a URL is not checked: pushes refresh merge requests with no request to tell us the name we are reached
// by, so the project path, which must name a project here, is what makes it ours. The lazy path keeps `/-` out of it.
const URL_REF = String.raw`https?:\/\/[^\s\/]+\/((?:[\w.-]+\/)*?[\w.-]+)\/(?:-\/)?issues\/(\d+)`
const SHORT_REF = String.raw`((?:[\w.-]+\/)*[\w.-]+)?#(\d+)`
const REFERENCE = new RegExp(`${URL_REF}|${SHORT_REF}`, 'g')
/** GitLab's default closing pattern (compat-notes §4): `Closes #1`, `fixes group/p#2, #3 and https://…/issues/4`. */
const CLOSING = new RegExp(String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?):? +` +
  String.raw`(?:(?:issues? +)?(?:${URL_REF}|${SHORT_REF})(?: *,? +and +| *,? *)?)+`, 'g')

/** Every issue reference in `text`. */
export const issueReferencesIn = (text: string): IssueReference[] =>
  [...text.matchAll(REFERENCE)].map((r) => ({ path: r[1] ?? r[3], iid: Number(r[2] ?? r[4]) }))

/** The references that closing phrases of `text` name. */
export const closingReferencesIn = (text: string) => [...text.matchAll(CLOSING)].flatMap((m) => issueReferencesIn(m[0]))

/** Whether `ref`, written in project `from`, names project `p`. */
export const refersTo = (ref: IssueReference, p: ProjectView, from: ProjectView) =>
  ref.path === undefined ? p.id === from.id : ref.path === projectFullPath(p) || (p.namespace_id === from.namespace_id && ref.path === p.path)

/** The project `ref`, written in `from`, names: `from` itself, one by its full path, or one of from's namespace by its path. */
export function referencedProject(db: Db, ref: IssueReference, from: ProjectView): ProjectView | undefined {
  if (ref.path === undefined || ref.path === projectFullPath(from)) return from
  return findProjectByPath(db, ref.path) ?? (ref.path.includes('/') ? undefined : findProjectByPath(db, `${from.ns_full_path}/${ref.path}`))
}

/** Ids of the issues that closing phrases of `text`, written in `from`, name, in order, each once. */
export function closingIssueIds(db: Db, from: ProjectView, text: string): number[] {
  const ids: number[] = []
  for (const ref of closingReferencesIn(text)) {
    const project = referencedProject(db, ref, from)
    const issue = project && findIssueByIid(db, project.id, ref.iid)
    if (issue && !ids.includes(issue.id)) ids.push(issue.id)
  }
  return ids
}
