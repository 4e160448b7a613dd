// The project itself and what hangs off it without a discussion order: labels, milestones, snippets, releases and
// CI/CD variables. Labels, milestones, releases and variables are matched by their names on the target, so a
// re-run finds them without the journal; snippets are matched through the journal.
import { route } from '../../src/client/paths.js'
import { count, eachItem, type Migration, type ProjectFacts } from './migrate-context.js'
import { carried } from './migrate-uploads.js'
import { copyDiscussion } from './migrate-discussion.js'
import { authorHeader } from './migrate-people.js'
import { messageOf, statusOf, type Side } from './migrate-side.js'

export type SourceProject = ProjectFacts

/** Creates the target project in the namespace (the token user's own when none); answers it and any problem. */
export async function createTargetProject(target: Side, from: SourceProject, namespaceId: number | undefined, path: string): Promise<{ project: ProjectFacts; problem?: string }> {
  const fields = {
    name: path === from.path ? from.name : path, path, namespace_id: namespaceId, description: from.description ?? undefined, visibility: from.visibility,
    issues_enabled: from.issues_enabled, merge_requests_enabled: from.merge_requests_enabled, wiki_enabled: from.wiki_enabled,
    snippets_enabled: from.snippets_enabled,
  }
  try {
    return { project: await target.write(route('createProject', {}), fields) }
  } catch (err) {
    // A public project cannot go into a private group, nor past the target's restricted visibility levels.
    if (statusOf(err) !== 400 || !/visibility/i.test(messageOf(err))) throw err
    const project = await target.write<ProjectFacts>(route('createProject', {}), { ...fields, visibility: undefined })
    return { project, problem: `visibility ${from.visibility} is not allowed there: the project is ${project.visibility}` }
  }
}

export async function copyDefaultBranch(m: Migration, branches: Set<string>): Promise<void> {
  const wanted = m.from.default_branch
  if (!wanted || !branches.has(wanted)) return
  const now = await m.target.get<ProjectFacts>(route('getProject', { id: m.to.id }))
  if (now.default_branch !== wanted) await m.target.write(route('editProject', { id: m.to.id }), { default_branch: wanted })
}

interface Label { name: string; color: string; description: string | null; priority?: number | null }

export async function copyLabels(m: Migration): Promise<void> {
  const labels = await m.source.all<Label>(route('listProjectLabels', { id: m.from.id }))
  const there = new Set((await m.target.all<Label>(route('listProjectLabels', { id: m.to.id }))).map((l) => l.name))
  for (const label of labels) {
    if (there.has(label.name)) {
      count(m.tally, 'already', 'labels')
      continue
    }
    const fields = { name: label.name, color: label.color, description: label.description ?? undefined, priority: label.priority ?? undefined }
    await m.target.write(route('createProjectLabel', { id: m.to.id }), fields)
    count(m.tally, 'copied', 'labels')
  }
  m.progress.end('labels', `${labels.length} on the source, ${m.tally.copied.labels ?? 0} copied`)
}

interface Milestone { id: number; title: string; description: string | null; state: string; due_date: string | null; start_date: string | null }

export async function copyMilestones(m: Migration): Promise<void> {
  const milestones = await m.source.all<Milestone>(route('listProjectMilestones', { id: m.from.id }))
  const there = new Map((await m.target.all<Milestone>(route('listProjectMilestones', { id: m.to.id }))).map((ms) => [ms.title, ms]))
  for (const ms of milestones) {
    let copy = there.get(ms.title)
    if (copy) count(m.tally, 'already', 'milestones')
    else {
      const fields = { title: ms.title, description: ms.description ?? undefined, due_date: ms.due_date ?? undefined, start_date: ms.start_date ?? undefined }
      copy = await m.target.write<Milestone>(route('createProjectMilestone', { id: m.to.id }), fields)
      count(m.tally, 'copied', 'milestones')
    }
    if (ms.state === 'closed' && copy.state !== 'closed') await m.target.write(route('editProjectMilestone', { id: m.to.id, milestone_id: copy.id }), { state_event: 'close' })
    m.milestones.set(ms.id, copy.id)
  }
  m.progress.end('milestones', `${milestones.length} on the source, ${m.tally.copied.milestones ?? 0} copied`)
}

interface Snippet {
  id: number
  title: string
  description: string | null
  visibility: string
  file_name?: string
  files?: { path: string; raw_url: string }[]
  author: { username: string }
  created_at: string
}

export async function copySnippets(m: Migration): Promise<void> {
  const snippets = await m.source.get<Snippet[]>(route('listProjectSnippets', { id: m.from.id }), { per_page: 100 }).catch((err) => {
    // Snippets turned off on the source answer 403 (GitLab) or 404.
    if (statusOf(err) === 403 || statusOf(err) === 404) return undefined
    throw err
  })
  if (!snippets) return
  const all = snippets.length < 100 ? snippets : await m.source.all<Snippet>(route('listProjectSnippets', { id: m.from.id }))
  await eachItem(m, 'snippet', 'snippets', all.sort((a, b) => a.id - b.id), (s) => s.id, (s) => createSnippet(m, s), (s, to) =>
    copyDiscussion(m, { kind: 'snippet', from: s.id, to, label: `snippet $${s.id}` }))
}

async function createSnippet(m: Migration, s: Snippet): Promise<number> {
  const files: { file_path: string; content: string }[] = []
  for (const f of s.files ?? []) {
    // raw_url ends in /raw/<ref>/<path>: the ref of the snippet's repository.
    const ref = /\/raw\/([^/]+)\//.exec(f.raw_url)?.[1] ?? 'main'
    files.push({ file_path: f.path, content: await m.source.text(route('getProjectSnippetFileRaw', { id: m.from.id, snippet_id: s.id, ref, file_path: f.path })) })
  }
  // Before GitLab 13.5, a snippet is one file_name and its raw content.
  if (files.length === 0) files.push({ file_path: s.file_name ?? 'snippet', content: await m.source.text(route('getProjectSnippetRaw', { id: m.from.id, snippet_id: s.id })) })
  const writer = await m.people.author(s.author.username)
  const description = (authorHeader(s.author.username, writer.kept, s.created_at, false) + (await carried(m, s.description))) || undefined
  const created = await m.target.write<{ id: number }>(route('createProjectSnippet', { id: m.to.id }), { title: s.title, description, visibility: s.visibility, files }, writer.sudo)
  m.journal.record('snippet', s.id, created.id)
  count(m.tally, 'copied', 'snippets')
  return created.id
}

interface Release {
  tag_name: string
  name: string | null
  description: string | null
  released_at: string | null
  milestones?: { title: string }[]
  assets?: { links?: { name: string; url: string; link_type?: string; direct_asset_path?: string }[] }
}

export async function copyReleases(m: Migration): Promise<void> {
  const releases = await m.source.find<Release[]>(route('listReleases', { id: m.from.id }), { per_page: 100 })
  if (!releases) {
    m.tally.problems.push('releases: the source has no releases API')
    return
  }
  const all = releases.length < 100 ? releases : await m.source.all<Release>(route('listReleases', { id: m.from.id }))
  for (const r of all.reverse()) {
    if (m.journal.has('release', r.tag_name) || (await m.target.find(route('getRelease', { id: m.to.id, tag_name: r.tag_name })))) {
      count(m.tally, 'already', 'releases')
      continue
    }
    const links = (r.assets?.links ?? []).map((l) => ({ name: l.name, url: l.url, link_type: l.link_type }))
    const fields = {
      tag_name: r.tag_name, name: r.name ?? undefined, description: (await carried(m, r.description)) || undefined, released_at: r.released_at ?? undefined,
      milestones: r.milestones?.map((ms) => ms.title), assets: links.length ? { links } : undefined,
    }
    try {
      await m.target.write(route('createRelease', { id: m.to.id }), fields)
    } catch (err) {
      const status = statusOf(err)
      if (status === undefined || status >= 500) throw err
      m.tally.problems.push(`release ${r.tag_name}: ${status === 404 ? 'the target has no releases API' : messageOf(err)}`)
      continue
    }
    m.journal.record('release', r.tag_name, r.tag_name)
    count(m.tally, 'copied', 'releases')
  }
  m.progress.end('releases', `${all.length} on the source, ${m.tally.copied.releases ?? 0} copied`)
}

interface Variable {
  key: string
  value: string | null
  variable_type?: string
  protected?: boolean
  masked?: boolean
  raw?: boolean
  environment_scope?: string
  description?: string | null
}

export async function copyVariables(m: Migration): Promise<void> {
  const variables = await m.source.all<Variable>(route('listProjectVariables', { id: m.from.id }))
  const scope = (v: Variable) => `${v.key}:${v.environment_scope ?? '*'}`
  const there = new Set((await m.target.all<Variable>(route('listProjectVariables', { id: m.to.id }))).map(scope))
  for (const v of variables) {
    if (there.has(scope(v))) {
      count(m.tally, 'already', 'variables')
      continue
    }
    if (v.value === null) {
      m.tally.problems.push(`variable ${v.key}: its value is hidden on the source`)
      continue
    }
    const { key, value, variable_type, protected: isProtected, masked, raw, environment_scope, description } = v
    try {
      await m.target.write(route('createProjectVariable', { id: m.to.id }), {
        key, value, variable_type, protected: isProtected, masked, raw, environment_scope, description: description ?? undefined,
      })
    } catch (err) {
      const status = statusOf(err)
      if (status === undefined || status >= 500) throw err
      m.tally.problems.push(`variable ${key}: ${messageOf(err)}`)
      continue
    }
    count(m.tally, 'copied', 'variables')
  }
  m.progress.end('variables', `${variables.length} on the source, ${m.tally.copied.variables ?? 0} copied`)
}
