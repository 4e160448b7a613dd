// What a person at a terminal sees and is asked: run() with a TTY IO and a recording prompter against a real server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as create from '../../../commands/mr/create.js'
import * as diff from '../../../commands/mr/diff.js'
import { createDeps } from '../../../src/cli/factory.js'
import type { IO, Style } from '../../../src/cli/io.js'
import type { Prompter } from '../../../src/cli/prompts.js'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import type { ServerFixture } from '../cli.js'
import { seeded } from './fixture.js'

const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`
const style: Style = { bold: tag('b'), dim: tag('d'), green: tag('g'), red: tag('r'), yellow: tag('y'), blue: tag('u'), magenta: tag('m') }

let server: TestServer
let root: Api
let out: string
let asked: string[]
let deps: ReturnType<typeof createDeps>

/** Answers every question and remembers it, so a test sees what was asked and in which order. */
const prompter: Prompter = {
  input: async (message) => (asked.push(`input ${message}`), 'Typed title'),
  password: async () => '',
  confirm: async () => true,
  select: async (_message, _flag, choices) => choices[0],
  editor: async (message) => (asked.push(`editor ${message}`), 'Typed description\n'),
}

beforeEach(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  root = api(server, server.rootToken)
  out = ''
  asked = []
  const io: IO = {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: () => {} },
    stdoutIsTTY: true,
    canPrompt: true,
    columns: 120,
    colorLevel: 1,
    color: style,
    env: { COLLAB_HOST: server.url, COLLAB_TOKEN: server.rootToken, COLLAB_CONFIG_DIR: server.dataDir },
    cwd: server.dataDir,
    readStdin: async () => '',
    onSignal: () => () => {},
  }
  deps = createDeps(io, {}, prompter)
})
afterEach(() => server.close())

const fixture = () => ({ server, root } as unknown as ServerFixture)
const createOptions = (project: string): create.CreateOptions => ({ ...create.toOptions({}), project, sourceBranch: 'fix' })

describe('mr verbs on a terminal', () => {
  it('colours the diff as git does', async () => {
    await seeded(fixture())
    await diff.run({ project: 'root/demo', mr: '1', json: false }, deps)
    expect(out).toBe(['<b>diff --git a/README.md b/README.md</b>', '<b>--- a/README.md</b>', '<b>+++ b/README.md</b>', '<d>@@ -1 +1,2 @@</d>', ' # demo', '<g>+fixed</g>', ''].join('\n'))
  })

  it('create with nothing given asks for the title, then opens the editor for the description', async () => {
    const { p } = await seeded(fixture(), false)
    await create.run(createOptions('root/demo'), deps)
    expect(asked).toEqual(['input Title', 'editor Description (saved when the editor closes)'])
    const got = expectStatus(await root.get(`/projects/${p.id}/merge_requests/1`), 200).body
    expect([got.title, got.description, got.source_branch, got.target_branch]).toEqual(['Typed title', 'Typed description', 'fix', 'master'])
  })

  it('create finds the project and credentials before asking anything', async () => {
    await seeded(fixture(), false)
    await expect(create.run(createOptions('root/nope'), deps)).rejects.toThrow('404 Project Not Found')
    expect(asked).toEqual([])
  })
})
