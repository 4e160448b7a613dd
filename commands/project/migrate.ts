// collab project migrate SOURCE --to URL: copies a project from one GitLab-compatible server to another through the
// v4 API and git only (repository, wiki, labels, milestones, issues, merge requests, notes, awards, snippets,
// releases, variables), resumably; ends with what could not be copied.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, type Runtime } from '../../src/cli/command.js'
import { normalizeHost } from '../../src/cli/config.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { progress, type Migration, type ProjectFacts, type Tally } from './migrate-context.js'
import { copyRepository, copyWiki } from './migrate-git.js'
import { copyIssues } from './migrate-issues.js'
import { copyMergeRequests } from './migrate-merge-requests.js'
import { people } from './migrate-people.js'
import { copyDefaultBranch, copyLabels, copyMilestones, copyReleases, copySnippets, copyVariables, createTargetProject, type SourceProject } from './migrate-project.js'
import { side, type Side } from './migrate-side.js'
import { journalPath, MigrationStopped, openJournal, type Journal } from './migrate-state.js'

export interface MigrateOptions {
  project?: string
  to: string
  toToken?: string
  namespace?: string
  path?: string
  variables: boolean
  state?: string
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('migrate')
    .description('Copy a project to another GitLab-compatible server: repository, wiki, issues, merge requests, notes and more (resumable)')
    .argument('[source]', 'the project to copy: id, path or URL on the source server (default: -p, COLLAB_PROJECT, git remote)')
    .requiredOption('--to <url>', 'the target server, e.g. https://gitlab.example.com')
    .option('--to-token <token>', "a token on the target (default: COLLAB_TO_TOKEN, else the CLI's stored token for --to)")
    .option('--namespace <namespace>', "the target group or user, by id or path (default: the target token's user)")
    .option('--path <path>', "the project's path on the target (default: the source's)")
    .option('--variables', 'copy CI/CD variables too (their values are secrets)')
    .option('--state <file>', 'the journal of what was copied (default: one per source and target in the config directory)')
    .option('-p, --project <project>', 'the source project, as the argument')
  withJson(withConnection(command)).action((source: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(source, flags)))
}

export const toOptions = (source: string | undefined, flags: OptionValues): MigrateOptions => ({
  project: source ?? flags.project,
  to: flags.to,
  toToken: flags.toToken,
  namespace: flags.namespace,
  path: flags.path,
  variables: flags.variables === true,
  state: flags.state,
  json: flags.json === true,
})

export async function run(options: MigrateOptions, deps: Deps): Promise<void> {
  const { io } = deps
  const { api, ref } = await deps.project(options.project)
  const source = side(api)
  const from = await source.get<SourceProject>(route('getProject', { id: ref }))
  const target = side(await targetClient(options, deps))
  let toId = 0
  const users = await people(target, () => toId)
  const namespace = options.namespace ? await target.get<{ id: number; full_path: string }>(route('getNamespace', { id: options.namespace })) : undefined
  const path = options.path ?? from.path
  const targetPath = `${namespace?.full_path ?? users.me}/${path}`
  const file = options.state ?? journalPath(await deps.configDir, { host: source.api.host, project: from.id, path: from.path_with_namespace }, { host: target.api.host, path: targetPath })
  const stopAfter = Number(io.env.COLLAB_MIGRATE_STOP_AFTER) || undefined
  const journal = openJournal(file, stopAfter)
  const tally: Tally = { copied: {}, already: {}, problems: [] }
  const to = await targetProject(target, journal, from, namespace?.id, path, targetPath, tally)
  toId = to.id
  const m: Migration = {
    source, target, from, to, journal, people: users, tally, milestones: new Map(),
    progress: progress(io.stderr, io.stdoutIsTTY, options.json && !io.stdoutIsTTY),
  }
  try {
    await copyAll(m, options, deps)
  } catch (err) {
    if (err instanceof MigrationStopped) throw failure(`${err.message}; the journal is ${file}`, 'run the same command again to continue')
    throw err
  }
  const summary = {
    source: { host: source.api.host, project: from.path_with_namespace, web_url: from.web_url },
    target: { host: target.api.host, project: to.path_with_namespace, web_url: to.web_url },
    copied: tally.copied,
    already: tally.already,
    not_copied: [...new Set(tally.problems)],
    requests: { source: source.requests(), target: target.requests() },
    journal: file,
  }
  if (options.json) printRaw(io, JSON.stringify(summary))
  else io.stdout.write(`${to.web_url}\n`)
  if (!options.json) report(deps, summary)
}

async function targetClient(options: MigrateOptions, deps: Deps) {
  let host: string
  try {
    host = normalizeHost(options.to)
  } catch {
    throw usageError(`invalid --to '${options.to}': expected a URL such as https://gitlab.example.com`)
  }
  const given = options.toToken ?? deps.io.env.COLLAB_TO_TOKEN
  // The stored token may live in the OS keyring, or be an OAuth token to renew: the CLI's own lookup reads it.
  const token = given ? { token: given, header: 'PRIVATE-TOKEN' as const, source: '--to-token' } : await deps.storedTokenFor(host)
  if (!token) throw usageError(`no token for ${host}`, `pass --to-token, set COLLAB_TO_TOKEN, or run 'collab auth login --host ${host}'`)
  return deps.clientFor(host, token)
}

/** The target project: the one the journal names, else a new one (an existing project of that path is left alone). */
async function targetProject(target: Side, journal: Journal, from: SourceProject, namespaceId: number | undefined, path: string, targetPath: string, tally: Tally): Promise<ProjectFacts> {
  const known = journal.get('project', 'id')
  if (known !== undefined) {
    const project = await target.find<ProjectFacts>(route('getProject', { id: known }))
    if (!project) throw failure(`the project this migration created on ${target.api.host} (id ${known}) is gone`, `remove the journal ${journal.file} to start over`)
    return project
  }
  if (await target.find(route('getProject', { id: targetPath }), { simple: true })) {
    throw failure(`${targetPath} already exists on ${target.api.host}`, 'choose another --namespace or --path (a project this command created is found through its journal)')
  }
  const { project, problem } = await createTargetProject(target, from, namespaceId, path)
  if (problem) tally.problems.push(problem)
  journal.record('project', 'id', project.id)
  return project
}

async function copyAll(m: Migration, options: MigrateOptions, deps: Deps): Promise<void> {
  const env = deps.io.env
  const repo = await copyRepository(m, env)
  try {
    await copyDefaultBranch(m, repo.branches)
    if (m.from.wiki_enabled !== false) await copyWiki(m, env)
    await copyLabels(m)
    await copyMilestones(m)
    if (m.from.issues_enabled !== false) await copyIssues(m)
    if (m.from.merge_requests_enabled !== false) await copyMergeRequests(m, repo)
    if (m.from.snippets_enabled !== false) await copySnippets(m)
    await copyReleases(m)
    if (options.variables) await copyVariables(m)
  } finally {
    repo.close()
  }
}

function report(deps: Deps, summary: { copied: Record<string, number>; already: Record<string, number>; not_copied: string[]; requests: { source: number; target: number } }) {
  const { io } = deps
  const list = (counts: Record<string, number>) => Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`).join(', ')
  io.stderr.write(`Copied ${list(summary.copied) || 'nothing'}.\n`)
  if (list(summary.already)) io.stderr.write(`Already there: ${list(summary.already)}.\n`)
  if (summary.not_copied.length === 0) {
    io.stderr.write('Everything was copied.\n')
    return
  }
  io.stderr.write(`Not copied (${summary.not_copied.length}):\n`)
  for (const line of summary.not_copied) io.stderr.write(`  - ${line}\n`)
}
