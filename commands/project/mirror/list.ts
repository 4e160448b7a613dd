// collab project mirror list: a project's push mirrors, their URLs (credentials masked by the server) and last update.
import type { Command, OptionValues } from 'commander'
import { pageOptions, pageQuery, withJson, withPagination, type PageOptions, type Runtime } from '../../../src/cli/command.js'
import type { Deps } from '../../../src/cli/factory.js'
import { printList, printRaw } from '../../../src/cli/output.js'
import { route } from '../../../src/client/paths.js'
import { onRepository } from '../repository.js'

export interface MirrorListOptions extends PageOptions {
  project?: string
  json: boolean
}

export function register(mirror: Command, rt: Runtime): void {
  const command = mirror.command('list', { isDefault: true }).alias('ls').description('List the push mirrors of a project')
  withJson(withPagination(onRepository(command))).action((flags: OptionValues) => rt.invoke(command, run, toOptions(flags)))
}

export const toOptions = (flags: OptionValues): MirrorListOptions => ({ project: flags.project, ...pageOptions(flags), json: flags.json === true })

export async function run(options: MirrorListOptions, deps: Deps): Promise<void> {
  const { api, ref } = await deps.project(options.project)
  const page = await api.list(route('listRemoteMirrors', { id: ref }), pageQuery(options), { all: options.all })
  if (options.json) return printRaw(deps.io, page.text)
  const { io } = deps
  await printList(io, [
    { header: 'ID', value: (m) => m.id, style: (text) => io.color.bold(text) },
    { header: 'URL', value: (m) => m.url, flex: true },
    { header: 'ENABLED', value: (m) => (m.enabled ? 'yes' : 'no') },
    { header: 'STATUS', value: (m) => m.update_status, style: (text) => (text === 'failed' ? io.color.red(text) : text) },
    { header: 'UPDATED', value: (m) => m.last_update_at, time: true },
    { header: 'ERROR', value: (m) => m.last_error?.split('\n')[0], flex: true },
  ], page, { noun: 'push mirrors', where: ref })
}
