// collab alias: set, list and delete shortcuts for command lines (gh alias); `collab NAME …` runs the expansion.
import type { Command, OptionValues } from 'commander'
import { aliasesOf, splitWords } from '../../src/cli/aliases.js'
import type { Runtime } from '../../src/cli/command.js'
import { configDirFrom, readConfig, writeConfig } from '../../src/cli/config.js'
import { completeWith, type Candidate } from '../../src/cli/completion.js'
import { failure, usageError } from '../../src/cli/errors.js'
import type { Deps } from '../../src/cli/factory.js'
import { printTable, status } from '../../src/cli/output.js'

export const summary = 'Make shortcuts for command lines: set, list, delete (collab NAME runs one)'

export interface SetOptions { name: string; expansion: string; clobber: boolean; commands: ReadonlySet<string> }
export interface NameOptions { name: string }

export function register(group: Command, rt: Runtime): void {
  // The top-level commands, which an alias may neither shadow nor fail to start with.
  const commands = () => new Set([...(group.parent?.commands ?? []).map((c) => c.name()), 'help'])
  const set = group.command('set').description('Make NAME stand for a command line: collab alias set co "mr checkout"')
    .argument('<name>', 'the alias').argument('<expansion>', "the command line without 'collab'; $1… take arguments; a leading ! runs it with sh")
    .option('--clobber', 'replace an alias of that name')
    .addHelpText('after', `
Examples:
  collab alias set co 'mr checkout'               collab co 5  is  collab mr checkout 5
  collab alias set bugs 'issue list --label bug'  arguments after the name are appended
  collab alias set mine 'issue list --assignee $1'
  collab alias set count '!collab issue list "$@" | wc -l'`)
  set.action((name: string, expansion: string, flags: OptionValues) =>
    rt.invoke(set, runSet, { name, expansion, clobber: flags.clobber === true, commands: commands() } satisfies SetOptions))
  const list = group.command('list').alias('ls').description('Print the aliases: name<TAB>expansion when piped')
  list.action(() => rt.invoke(list, runList, {}))
  const del = group.command('delete').alias('rm').description('Delete an alias').argument('<name>', 'the alias')
  completeWith(del.registeredArguments[0], async ({ io }) =>
    Object.entries(aliasesOf(await readConfig(await configDirFrom(io.env)))).sort(([a], [b]) => a.localeCompare(b)).map(([name, expansion]): Candidate => [name, expansion]))
  del.action((name: string) => rt.invoke(del, runDelete, { name } satisfies NameOptions))
}

export async function runSet(options: SetOptions, deps: Deps): Promise<void> {
  const { name, expansion } = options
  if (!/^[\w][\w.-]*$/.test(name)) throw usageError(`invalid alias name '${name}': letters, digits, '.', '-' and '_'`)
  if (options.commands.has(name)) throw usageError(`'${name}' is a collab command; pick another name`)
  if (!expansion.startsWith('!')) {
    const first = splitWords(expansion)[0]
    if (first === undefined || !options.commands.has(first)) {
      throw usageError(`'${expansion}' does not start with a collab command`, "start it with one (issue, mr …), or with '!' for a shell command")
    }
  }
  const config = await deps.config()
  const aliases = aliasesOf(config)
  if (aliases[name] !== undefined && !options.clobber) throw failure(`the alias '${name}' exists: ${aliases[name]}`, 'pass --clobber to replace it')
  aliases[name] = expansion
  await writeConfig(await deps.configDir, { ...config, aliases })
  status(deps.io, `Added alias ${name}: ${expansion}`)
}

export async function runList(_options: object, deps: Deps): Promise<void> {
  const aliases = Object.entries(aliasesOf(await deps.config())).sort(([a], [b]) => a.localeCompare(b))
  if (aliases.length === 0) return void deps.io.stderr.write("No aliases; add one with 'collab alias set NAME EXPANSION'\n")
  await printTable(deps.io, [
    { header: 'NAME', value: ([name]) => name },
    { header: 'EXPANSION', value: ([, expansion]) => expansion, flex: true },
  ], aliases)
}

export async function runDelete(options: NameOptions, deps: Deps): Promise<void> {
  const config = await deps.config()
  const aliases = aliasesOf(config)
  if (aliases[options.name] === undefined) throw failure(`no alias named '${options.name}'`, "see 'collab alias list'")
  delete aliases[options.name]
  await writeConfig(await deps.configDir, { ...config, aliases })
  status(deps.io, `Deleted alias ${options.name}`)
}
