// What a person at a terminal sees: run() with a TTY IO against a real server; colours shown as <tags>.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as diff from '../../../commands/commit/diff.js'
import * as list from '../../../commands/commit/list.js'
import * as view from '../../../commands/commit/view.js'
import { createDeps } from '../../../src/cli/factory.js'
import { plainStyle, type IO, type Style } from '../../../src/cli/io.js'
import { api, createProject } from '../../helpers/api.js'
import { commit, create, update } from '../../helpers/repository.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`
const style: Style = { bold: tag('b'), dim: tag('d'), green: tag('g'), red: tag('r'), yellow: tag('y'), blue: tag('u'), magenta: tag('m') }

let server: TestServer
let out: string
let deps: ReturnType<typeof createDeps>

beforeEach(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  out = ''
  const io: IO = {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: () => {} },
    stdoutIsTTY: true,
    canPrompt: false,
    columns: 120,
    colorLevel: 1,
    color: style,
    env: { COLLAB_HOST: server.url, COLLAB_TOKEN: server.rootToken, COLLAB_CONFIG_DIR: server.dataDir },
    cwd: server.dataDir,
    readStdin: async () => '',
    onSignal: () => () => {},
  }
  deps = createDeps(io, {})
})
afterEach(() => server.close())

async function twoCommits() {
  const root = api(server, server.rootToken)
  const p = await createProject(root, { name: 'demo' })
  const seed = await commit(root, p.id, { commit_message: 'Seed', actions: [create('a.txt', 'one\ntwo\n')] })
  const change = await commit(root, p.id, { commit_message: 'Change two\n\nBecause two was wrong.\n', actions: [update('a.txt', 'one\n2\n')] })
  return { seed, change }
}

describe('commit verbs on a terminal', () => {
  it('colours the diff as git does: bold headers, dim hunk lines, red deletions, green additions', async () => {
    const { change } = await twoCommits()
    await diff.run({ project: 'root/demo', sha: change.id, json: false }, deps)
    expect(out).toBe([
      '<b>diff --git a/a.txt b/a.txt</b>', '<b>--- a/a.txt</b>', '<b>+++ b/a.txt</b>', '<d>@@ -1,2 +1,2 @@</d>', ' one', '<r>-two</r>', '<g>+2</g>', '',
    ].join('\n'))
  })

  it('shows a commit as aligned fields, then its message indented', async () => {
    const { seed, change } = await twoCommits()
    await view.run({ project: 'root/demo', sha: 'master', json: false }, deps)
    expect(out).toBe([
      `<d>id:            </d> ${change.id}`,
      '<d>title:         </d> Change two',
      '<d>author:        </d> Administrator <root@localhost>',
      '<d>authored_date: </d> 2024-01-02T03:04:05.000+00:00',
      '<d>committer:     </d> Administrator <root@localhost>',
      '<d>committed_date:</d> 2024-01-02T03:04:05.000+00:00',
      `<d>parents:       </d> ${seed.id}`,
      '<d>additions:     </d> 1',
      '<d>deletions:     </d> 1',
      `<d>web_url:       </d> ${server.url}/root/demo/-/commit/${change.id}`,
      '',
      '    Change two',
      '',
      '    Because two was wrong.',
      '',
    ].join('\n'))
  })

  it('lists commits as a table with short SHAs', async () => {
    const { seed, change } = await twoCommits()
    // Plain: the table measures cells without ANSI codes, and these tags are not ANSI codes.
    deps = createDeps({ ...deps.io, color: plainStyle }, {})
    await list.run({ project: 'root/demo', allRefs: false, firstParent: false, withStats: false, all: false, json: false }, deps)
    expect(out).toBe([
      'SHA       DATE                           AUTHOR         TITLE',
      `${change.short_id}  2024-01-02T03:04:05.000+00:00  Administrator  Change two`,
      `${seed.short_id}  2024-01-02T03:04:05.000+00:00  Administrator  Seed`,
      '',
    ].join('\n'))
  })
})
