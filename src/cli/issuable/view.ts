// `<kind> view`: one issuable's main facts and description; its notes with --comments (as glab); its page in the
// browser with --web. The facts are the kind's own.
import type { Command, OptionValues } from 'commander'
import { parseJson } from '../../client/http.js'
import type { ResponseOf } from '../../contract/routes.js'
import { WEB_FLAG_HELP, WEB_HELP_TEXT, openInBrowser } from '../browser.js'
import { withJson, type Runtime } from '../command.js'
import type { Deps } from '../factory.js'
import { printNotes } from '../notes.js'
import { printFields, printRaw } from '../output.js'
import { onTarget, routeOn, targetAction, type IssuableKind, type IssuableTarget, type TargetOptions } from './kind.js'

export interface ViewOptions extends TargetOptions { comments: boolean; web: boolean; json: boolean }

type Viewed = ResponseOf<IssuableKind['endpoints']['get']>

type Field = Parameters<typeof printFields>[1][number]

/** The labelled facts of one issuable, in the order they print; may ask the server for more (approvals). */
export type ViewFields<T> = (entity: T, target: IssuableTarget, deps: Deps) => Promise<Field[]> | Field[]

export async function runView<T extends Viewed>(kind: IssuableKind, fields: ViewFields<T>, options: ViewOptions, deps: Deps): Promise<void> {
  const target = await kind.resolve(deps, options)
  const response = await target.api.call(routeOn(kind, kind.endpoints.get, target))
  if (options.json) return printRaw(deps.io, response.text)
  const entity = parseJson<T>(response)
  if (options.web) return openInBrowser(deps.io, entity.web_url)
  const facts = await fields(entity, target, deps)
  const notes = options.comments
    ? await target.api.list(routeOn(kind, kind.endpoints.notes.list, target), { sort: 'asc', per_page: 100 }, { all: true })
    : undefined
  printFields(deps.io, facts, entity.description, notes && (() => printNotes(deps.io, notes.items)))
}

export function registerView<T extends Viewed>(group: Command, rt: Runtime, kind: IssuableKind, fields: ViewFields<T>): void {
  const command = withJson(onTarget(kind, group.command('view').alias('show').description(`Show ${kind.a}, and its notes with --comments`)))
    .option('-c, --comments', 'also print the notes, oldest first')
    .option('-w, --web', WEB_FLAG_HELP)
    .addHelpText('after', WEB_HELP_TEXT)
  targetAction(kind, command, (target, _args, flags: OptionValues) => rt.invoke(command, (o: ViewOptions, deps: Deps) => runView(kind, fields, o, deps), {
    ...target, comments: flags.comments === true, web: flags.web === true, json: flags.json === true,
  }))
}
