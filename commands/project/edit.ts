// collab project edit [project]: change a project's settings with PUT /projects/:id.
import type { Command, OptionValues } from 'commander'
import { choice, withJson, type Runtime } from '../../src/cli/command.js'
import { usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { reportWrite } from '../../src/cli/output.js'
import { route } from '../../src/client/paths.js'
import { onProject, VISIBILITIES } from './shared.js'

/** Feature switches: `--issues` / `--no-issues` set `issues_enabled`, and so on. */
const SWITCHES = {
  issues: ['issues_enabled', 'issues'],
  mergeRequests: ['merge_requests_enabled', 'merge requests'],
  wiki: ['wiki_enabled', 'the wiki'],
  jobs: ['jobs_enabled', 'CI jobs'],
  snippets: ['snippets_enabled', 'snippets'],
  lfs: ['lfs_enabled', 'Git LFS'],
  requestAccess: ['request_access_enabled', 'access requests'],
  publicJobs: ['public_jobs', 'public pipelines and jobs'],
} as const

const flagName = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

export interface EditOptions {
  project?: string
  /** The PUT /projects/:id body: only what a flag set. */
  settings: Record<string, string | boolean | string[]>
  json: boolean
}

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('edit')
    .description("Change a project's settings")
    .option('--name <name>', 'new name')
    .option('--path <path>', 'new path (changes its URLs)')
    .option('--description <text>', 'new description')
    .addOption(choice('--visibility <visibility>', 'who can see it', VISIBILITIES))
    .option('--default-branch <branch>', 'new default branch')
    .addOption(choice('--merge-method <method>', 'how merge requests are merged', ['merge', 'rebase_merge', 'ff']))
    .option('--topics <topics>', 'comma-separated topics (replaces the current ones)')
    .option('--ci-config-path <path>', 'path of the CI configuration file')
  for (const [key, [, what]] of Object.entries(SWITCHES)) {
    command.option(`--${flagName(key)}`, `enable ${what}`).option(`--no-${flagName(key)}`, `disable ${what}`)
  }
  withJson(onProject(command)).action((project: string | undefined, flags: OptionValues) => rt.invoke(command, run, toOptions(project, flags)))
}

export function toOptions(project: string | undefined, flags: OptionValues): EditOptions {
  const settings: EditOptions['settings'] = {}
  const text = { name: 'name', path: 'path', description: 'description', visibility: 'visibility', defaultBranch: 'default_branch', mergeMethod: 'merge_method', ciConfigPath: 'ci_config_path' }
  for (const [flag, field] of Object.entries(text)) if (flags[flag] !== undefined) settings[field] = flags[flag]
  if (flags.topics !== undefined) settings.topics = String(flags.topics).split(',').map((t) => t.trim()).filter(Boolean)
  for (const [flag, [field]] of Object.entries(SWITCHES)) if (flags[flag] !== undefined) settings[field] = flags[flag]
  return { project: project ?? flags.project, settings, json: flags.json === true }
}

export async function run(options: EditOptions, deps: Deps): Promise<void> {
  if (Object.keys(options.settings).length === 0) {
    throw usageError('nothing to change', "pass at least one setting; see 'collab project edit --help'")
  }
  const { api, ref } = await deps.project(options.project)
  const { data, response } = await api.send(route('editProject', { id: ref }), options.settings)
  reportWrite(deps.io, options.json, response, `Updated project ${data.path_with_namespace}`)
}
