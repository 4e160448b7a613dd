// What a person at a terminal sees and is asked: run() with a TTY IO and a recording prompter against a real server.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as create from '../../../commands/wiki/create.js'
import * as edit from '../../../commands/wiki/edit.js'
import * as view from '../../../commands/wiki/view.js'
import { createDeps } from '../../../src/cli/factory.js'
import type { IO, Style } from '../../../src/cli/io.js'
import type { Prompter } from '../../../src/cli/prompts.js'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`
const style: Style = { bold: tag('b'), dim: tag('d'), green: tag('g'), red: tag('r'), yellow: tag('y'), blue: tag('u'), magenta: tag('m') }

let server: TestServer
let root: Api
let out: string
let asked: string[]
let editorAnswer: string
let deps: ReturnType<typeof createDeps>
let projectId: number

const prompter: Prompter = {
  input: async (message) => (asked.push(`input ${message}`), 'Typed Title'),
  password: async () => '',
  confirm: async () => true,
  select: async (_message, _flag, choices) => choices[0],
  editor: async (message, _flag, initial) => (asked.push(`editor ${message} [${initial ?? ''}]`), editorAnswer),
}

beforeEach(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  root = api(server, server.rootToken)
  projectId = expectStatus(await root.post('/projects', { name: 'handbook' }), 201).body.id
  out = ''
  asked = []
  editorAnswer = ''
  const io: IO = {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: () => {} },
    stdoutIsTTY: true,
    canPrompt: true,
    columns: 100,
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

const page = async (slug: string) => expectStatus(await root.get(`/projects/${projectId}/wikis/${encodeURIComponent(slug)}`), 200).body

describe('wiki verbs on a terminal', () => {
  it('asks for the title and opens the editor for the content of a new page', async () => {
    editorAnswer = '# Typed\n'
    await create.run({ ...create.toOptions({}), project: 'root/handbook' }, deps)
    expect(asked).toEqual(['input Title', 'editor Page content (saved when the editor closes) []'])
    expect(await page('Typed-Title')).toEqual({ format: 'markdown', slug: 'Typed-Title', title: 'Typed Title', content: '# Typed\n' })
  })

  it('opens the editor on the current content when edit is given nothing, and sends nothing when it is unchanged', async () => {
    expectStatus(await root.post(`/projects/${projectId}/wikis`, { title: 'Home', content: 'old text' }), 201)
    editorAnswer = 'old text'
    await edit.run(edit.toOptions('Home', { project: 'root/handbook' }), deps)
    expect(asked).toEqual(['editor Page content (saved when the editor closes) [old text]'])
    editorAnswer = 'new text'
    await edit.run(edit.toOptions('Home', { project: 'root/handbook' }), deps)
    expect((await page('Home')).content).toBe('new text')
    expect(out).toBe('Home\n')
  })

  it('draws a markdown page: the title, headings bold, code dimmed', async () => {
    const content = '# Setup\n\nRun `make` first.\n\n```\nmake all\n```\nDone.\n'
    expectStatus(await root.post(`/projects/${projectId}/wikis`, { title: 'guides/Setup', content }), 201)
    await view.run(view.toOptions('guides/Setup', { project: 'root/handbook' }), deps)
    // The page's own heading is its title: printed once.
    expect(out).toBe(['<b>Setup</b>', '', 'Run <d>make</d> first.', '', '<d>make all</d>', 'Done.', ''].join('\n'))
  })
})
