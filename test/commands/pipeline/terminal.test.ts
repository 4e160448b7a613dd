// What a person at a terminal sees: run() with a TTY IO (styles as tags) against a real server — the pipeline drawn by
// stage with coloured statuses, --watch redrawing in place until the end, and the artifacts' progress bar on stderr.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import * as download from '../../../commands/job/artifacts.js'
import { progressLine } from '../../../commands/job/transfer.js'
import * as view from '../../../commands/pipeline/view.js'
import { createDeps } from '../../../src/cli/factory.js'
import type { IO, Style } from '../../../src/cli/io.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { until } from '../../helpers/wait.js'
import { ciWorld, finish, jobSpec, seedPipeline, takeJob, type CiWorld } from '../../server/ci/jobs/fixture.js'

const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`
const style: Style = { bold: tag('b'), dim: tag('d'), green: tag('g'), red: tag('r'), yellow: tag('y'), blue: tag('u'), magenta: tag('m') }

let server: TestServer
let w: CiWorld
let out: string
let err: string
let cwd: string
let deps: ReturnType<typeof createDeps>

beforeEach(async () => {
  server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
  w = await ciWorld(server)
  out = ''
  err = ''
  cwd = mkdtempSync(join(tmpdir(), 'collab-ci-tty-'))
  const io: IO = {
    stdout: { write: (text) => void (out += text) },
    stderr: { write: (text) => void (err += text) },
    stdoutIsTTY: true, canPrompt: true, columns: 80, colorLevel: 1, color: style,
    env: { COLLAB_HOST: server.url, COLLAB_TOKEN: w.owner.token }, cwd,
    now: () => Date.parse('2024-01-02T03:07:05.000Z'),
    readStdin: async () => '', onSignal: () => () => {},
  }
  deps = createDeps(io, {})
})
afterEach(async () => {
  rmSync(cwd, { recursive: true, force: true })
  await server.close()
})

const viewOptions = { project: 'owner/builds', pipeline: '1', ref: undefined, watch: false, interval: 0.1, web: false, json: false }

describe('collab pipeline view on a terminal', () => {
  it('draws the stages and their jobs with coloured statuses and durations', async () => {
    seedPipeline(w, [jobSpec('build', 0), jobSpec('lint', 1, { allowFailure: true }), jobSpec('test', 1), jobSpec('deploy', 2, { when: 'manual' })])
    await finish(w, await takeJob(w), {})
    await finish(w, await takeJob(w), { state: 'failed' })
    expect(await view.run(viewOptions, deps)).toBe(0)
    expect(out).toBe([
      `<b>Pipeline #1</b>  <g>running</g>  main @ ${w.sha.slice(0, 8)}  <d>(push, 3 minutes ago)</d>`,
      `<d>${server.url}/owner/builds/-/pipelines/1</d>`,
      '', '<b>build</b>',
      '  build   <g>✓ success</g>                  0s  <d>#1</d>',
      '', '<b>test</b>',
      '  lint    <y>! failed (allowed)</y>         0s  <d>#2</d>',
      '  test    <y>○ pending</y>                      <d>#3</d>',
      '', '<b>deploy</b>',
      '  deploy  <y>○ created</y>                      <d>#4</d>',
      '',
    ].join('\n'))
  })

  it('with --watch, redraws in place until the pipeline ends, and exits 1 when it failed', async () => {
    seedPipeline(w, [jobSpec('build', 0)])
    const watching = view.run({ ...viewOptions, watch: true }, deps)
    // The first frame drawn, the job ends: the watch must redraw.
    await until('the first frame', () => out.includes('<y>○ pending</y>'))
    await finish(w, await takeJob(w), { state: 'failed' })
    expect(await watching).toBe(1)
    const frames = out.split(/\x1b\[\d+F\x1b\[J/)
    expect(frames.length).toBeGreaterThanOrEqual(2)
    expect(frames[0]).toContain('<y>○ pending</y>')
    expect(frames[frames.length - 1]).toBe([
      `<b>Pipeline #1</b>  <r>failed</r>  main @ ${w.sha.slice(0, 8)}  <d>(push, 3 minutes ago)</d>`,
      `<d>${server.url}/owner/builds/-/pipelines/1</d>`, '', '<b>build</b>', '  build  <r>✗ failed</r>                   0s  <d>#1</d>', '',
    ].join('\n'))
  })
})

describe('collab job artifacts download on a terminal', () => {
  it('draws a progress bar on stderr while it saves', async () => {
    seedPipeline(w, [jobSpec('build', 0)])
    await finish(w, await takeJob(w), { files: { 'a.txt': 'a\n' } })
    await download.run({ project: 'owner/builds', job: '1', zip: true, output: 'a.zip' }, deps)
    expect(err).toMatch(/^(\r\[#{30}\] 100% {2}0\.\d KB \/ 0\.\d KB\x1b\[K)+\n<g>✓ <\/g>Saved the artifacts archive of job #1 in owner\/builds to a\.zip\n$/)
  })

  it('counts the rows a redraw climbs, wrapped lines included', () => {
    expect(view.rowsOf('ab\n\x1b[32m✓ success\x1b[39m\n\n', 4)).toBe(1 + 3 + 1)
  })

  it('sizes the bar by the Content-Length', () => {
    expect(progressLine(45 * 1024 * 1024, 100 * 1024 * 1024, 10)).toBe('[####......]  45%  45.0 MB / 100.0 MB')
    expect(progressLine(2048, undefined)).toBe('2.0 KB')
  })
})
