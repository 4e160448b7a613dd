// collab wiki clone [project] [dir]: `git clone` of the project's wiki repository, as `collab project clone` does it.
import type { Command, OptionValues } from 'commander'
import { withConnection, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { run as cloneProject } from '../project/clone.js'

export interface CloneOptions { project?: string; dir?: string }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('clone')
    .description("Clone a project's wiki repository with git, using the CLI's credentials")
    .argument('[project]', 'project id, path or URL (default: -p, COLLAB_PROJECT or the git remote)')
    .argument('[dir]', "the directory to clone into (default: <project>.wiki)")
  withProject(withConnection(command)).action((project: string | undefined, dir: string | undefined, flags: OptionValues) =>
    rt.invoke(command, run, toOptions(project, dir, flags)))
}

export const toOptions = (project: string | undefined, dir: string | undefined, flags: OptionValues): CloneOptions => ({
  project: project ?? flags.project, dir,
})

export async function run(options: CloneOptions, deps: Deps): Promise<void> {
  const { ref } = await deps.project(options.project, { anonymous: true })
  await cloneProject({ project: String(ref), dir: options.dir, wiki: true }, deps)
}
