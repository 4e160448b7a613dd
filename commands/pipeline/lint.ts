// collab pipeline lint [FILE]: check a CI configuration (default: .gitlab-ci.yml here; `-` reads stdin) in the project's context.
import type { Command, OptionValues } from 'commander'
import { withConnection, withJson, withProject, type Runtime } from '../../src/cli/command.js'
import type { Deps } from '../../src/cli/factory.js'
import { printRaw } from '../../src/cli/output.js'
import { readText } from '../../src/cli/sources.js'
import { parseJson } from '../../src/client/http.js'
import { route } from '../../src/client/paths.js'
import type { ResponseOf } from '../../src/contract/routes.js'

export interface LintOptions { project?: string; file: string; dryRun: boolean; ref?: string; json: boolean }

export function register(group: Command, rt: Runtime): void {
  const command = group
    .command('lint')
    .description('Check a CI/CD configuration file and print what is wrong with it')
    .argument('[file]', "the file to check; '-' reads stdin", '.gitlab-ci.yml')
    .option('--dry-run', 'also simulate creating a pipeline (rules, needs and includes as a push would see them)')
    .option('-r, --ref <ref>', 'with --dry-run, the branch or tag to simulate (default: the default branch)')
    .addHelpText('after', '\nExit codes:\n  0  the configuration is valid\n  1  it is not (each error is printed), or the request failed')
  withJson(withProject(withConnection(command))).action((file: string, flags: OptionValues) => rt.invoke(command, run, toOptions(file, flags)))
}

export const toOptions = (file: string, flags: OptionValues): LintOptions => ({
  project: flags.project, file, dryRun: flags.dryRun === true, ref: flags.ref, json: flags.json === true,
})

export async function run(options: LintOptions, deps: Deps): Promise<number> {
  const { io } = deps
  const content = await readText(options.file, 'file', io)
  const { api, ref: project } = await deps.project(options.project)
  const json = { content, dry_run: options.dryRun || undefined, ref: options.ref }
  const response = await api.call(route('lintProjectContent', { id: project }), { json })
  const result = parseJson<ResponseOf<'lintProjectContent'>>(response)
  if (options.json) printRaw(io, response.text)
  else if (!io.stdoutIsTTY) {
    io.stdout.write(`valid\t${result.valid}\n`)
    for (const error of result.errors) io.stdout.write(`error\t${error}\n`)
    for (const warning of result.warnings) io.stdout.write(`warning\t${warning}\n`)
  } else {
    const name = options.file === '-' ? 'stdin' : options.file
    io.stdout.write(result.valid ? `${io.color.green('✓')} ${name} is valid\n` : `${io.color.red('✗')} ${name} is invalid\n`)
    for (const error of result.errors) io.stdout.write(`  ${io.color.red('error:')} ${error}\n`)
    for (const warning of result.warnings) io.stdout.write(`  ${io.color.yellow('warning:')} ${warning}\n`)
  }
  return result.valid ? 0 : 1
}
