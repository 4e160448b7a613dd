// collab mr checkout [mr]: fetch the source branch (from a fork too) with the git command line into a local branch that tracks it.
import { promises as fs } from 'node:fs'
import type { Command, OptionValues } from 'commander'
import type { Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { findGitConfig, parseRemotes, projectOnHost } from '../../src/cli/git-remote.js'
import { status } from '../../src/cli/output.js'
import type { ApiClient } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import { gitAuthEnv } from '../project/clone.js'
import { git, gitOrFail } from './git.js'
import { onMergeRequest, reference, resolveMergeRequest } from './shared.js'

export interface CheckoutOptions { project?: string; mr?: string; branch?: string }

export function register(group: Command, rt: Runtime): void {
  const command = onMergeRequest(group.command('checkout').alias('co').description("Check out a merge request's source branch locally"))
    .option('-b, --branch <name>', 'the local branch (default: the source branch name)')
  command.action((mr: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(mr, flags)))
}

export const toOptions = (mr: string | undefined, flags: OptionValues): CheckoutOptions => ({ project: flags.project, mr, branch: flags.branch })

/** Where to fetch from: a remote of this clone that points at the source project (so `git pull` works as usual), else its URL. */
async function fetchSource(deps: Deps, api: ApiClient, projectPath: string, projectUrl: string) {
  const config = await findGitConfig(deps.io.cwd)
  const text = config ? await fs.readFile(config, 'utf8').catch(() => '') : ''
  const remote = parseRemotes(text).find((r) => projectOnHost(r.url, api.host) === projectPath)
  const url = remote?.url ?? projectUrl
  const credentials = api.credentials()
  const sameHost = /^https?:/i.test(url) && new URL(url).origin === new URL(api.host).origin
  return { name: remote?.name, url, env: credentials && sameHost ? gitAuthEnv(deps.io.env, url, credentials) : {} }
}

export async function run(options: CheckoutOptions, deps: Deps): Promise<void> {
  const target = await resolveMergeRequest(deps, options.project, options.mr)
  const { api } = target
  const m = await api.get(route('getProjectMergeRequest', { id: target.ref, merge_request_iid: target.iid }))
  // A deleted fork leaves its head only in the target project, as refs/merge-requests/<iid>/head.
  const gone = m.source_project_id === null
  const project = await api.get(route('getProject', { id: m.source_project_id ?? m.target_project_id }))
  const source = await fetchSource(deps, api, project.path_with_namespace, project.http_url_to_repo)
  const branch = gone ? `refs/merge-requests/${m.iid}/head` : `refs/heads/${m.source_branch}`
  // A named remote keeps its remote-tracking ref up to date; a fork without a remote is fetched by URL into FETCH_HEAD.
  const fetched = source.name && !gone ? `refs/remotes/${source.name}/${m.source_branch}` : 'FETCH_HEAD'
  const refspec = source.name && !gone ? `+${branch}:${fetched}` : branch
  await gitOrFail(deps.io, ['fetch', source.name ?? source.url, refspec], { env: source.env, inherit: true })
  const local = options.branch ?? m.source_branch
  const exists = (await git(deps.io, ['rev-parse', '--verify', '--quiet', `refs/heads/${local}`])).exitCode === 0
  if (exists) {
    await gitOrFail(deps.io, ['checkout', local])
    await gitOrFail(deps.io, ['merge', '--ff-only', fetched])
  } else {
    await gitOrFail(deps.io, ['checkout', '-b', local, fetched])
  }
  // Set by hand rather than with --track: git takes a URL as a branch's remote, which a fork without a remote needs.
  await gitOrFail(deps.io, ['config', `branch.${local}.remote`, source.name ?? source.url])
  await gitOrFail(deps.io, ['config', `branch.${local}.merge`, branch])
  status(deps.io, `Switched to branch ${local}, tracking ${source.name ?? source.url} ${gone ? branch : m.source_branch} (merge request ${reference(target)})`)
}
