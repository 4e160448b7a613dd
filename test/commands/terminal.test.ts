// The shared terminal layer: widths and truncation, state colours, relative times, list hints and pretty JSON.
import { describe, expect, it } from 'vitest'
import type { ApiResponse } from '../../src/client/http.js'
import { plainStyle, type IO, type Style } from '../../src/cli/io.js'
import { fitWidths, printList, printRaw, printTable, type Column } from '../../src/cli/output.js'
import { relativeTime, stateStyle, timeText } from '../../src/cli/terminal.js'
import { displayWidth, truncate } from '../../src/cli/text-width.js'

const tag = (name: string) => (text: string) => `<${name}>${text}</${name}>`
const tags: Style = { bold: tag('b'), dim: tag('d'), green: tag('g'), red: tag('r'), yellow: tag('y'), blue: tag('u'), magenta: tag('m') }
const NOW = Date.parse('2024-01-05T03:04:05Z')

function memoryIO(tty: boolean, columns = 80, color: Style = plainStyle): IO & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return {
    stdout: { write: (t) => void (out += t) },
    stderr: { write: (t) => void (err += t) },
    stdoutIsTTY: tty, canPrompt: false, columns: tty ? columns : undefined, colorLevel: 0, color, env: {}, cwd: '/',
    now: () => NOW, readStdin: async () => '', onSignal: () => () => {},
    out: () => out, err: () => err,
  }
}

type Row = { iid: number; title: string; state: string; updated: string }
const columns = (io: IO): Column<Row>[] => [
  { header: 'IID', value: (r) => `#${r.iid}` },
  { header: 'STATE', value: (r) => r.state, style: (t) => stateStyle(io, t) },
  { header: 'TITLE', value: (r) => r.title, flex: true },
  { header: 'UPDATED', value: (r) => r.updated, time: true },
]
const long = 'A very long title that would wrap every row of an eighty column terminal if nobody cut it short'
const rows: Row[] = [{ iid: 2, title: long, state: 'opened', updated: '2024-01-02T03:04:05Z' }, { iid: 1, title: 'Short', state: 'closed', updated: '2024-01-05T01:04:05Z' }]
const response = (headers: [string, string][]): ApiResponse => ({ method: 'GET', url: 'u', status: 200, statusText: 'OK', rawHeaders: headers, text: '[]' })

describe('widths', () => {
  it('counts wide characters and emoji as two columns and combining marks as none', () => {
    expect([displayWidth('abc'), displayWidth('日本'), displayWidth('🎉x'), displayWidth('e\u0301')]).toEqual([3, 4, 3, 1])
  })

  it('truncates with an ellipsis inside the width, never splitting a wide character', () => {
    expect([truncate('abcdef', 6), truncate('abcdef', 4), truncate('日本語', 4), truncate('abc', 0)]).toEqual(['abcdef', 'abc…', '日…', ''])
  })

  it('shrinks the flex column first, then the widest other, never under the header', () => {
    expect(fitWidths([3, 6, 90, 12], [3, 5, 5, 7], [false, false, true, false], 80)).toEqual([3, 6, 53, 12])
    expect(fitWidths([3, 6, 90, 12], [3, 5, 5, 7], [false, false, true, false], 30)).toEqual([3, 6, 5, 10])
  })

  it('fits a table to 80 columns on a terminal and keeps every character when piped', async () => {
    const tty = memoryIO(true, 80)
    await printTable(tty, columns(tty), rows)
    const lines = tty.out().split('\n').filter(Boolean)
    expect(lines.map((l) => displayWidth(l) <= 80)).toEqual([true, true, true])
    expect(lines).toEqual([
      'IID  STATE   TITLE                                                   UPDATED',
      '#2   opened  A very long title that would wrap every row of an eig…  3 days ago',
      '#1   closed  Short                                                   2 hours ago',
    ])
    const piped = memoryIO(false)
    await printTable(piped, columns(piped), rows)
    expect(piped.out()).toBe(`#2\topened\t${long}\t2024-01-02T03:04:05Z\n#1\tclosed\tShort\t2024-01-05T01:04:05Z\n`)
  })
})

describe('colours and times', () => {
  it('colours states by meaning', () => {
    const io = memoryIO(true, 80, tags)
    expect(['opened', 'closed', 'merged', 'pending', 'success', 'failed', 'canceled', 'other'].map((s) => stateStyle(io, s))).toEqual([
      '<g>opened</g>', '<r>closed</r>', '<m>merged</m>', '<y>pending</y>', '<g>success</g>', '<r>failed</r>', '<d>canceled</d>', 'other',
    ])
  })

  it('says how long ago on a terminal and prints ISO 8601 when piped', () => {
    expect(['2024-01-05T03:04:00Z', '2024-01-05T03:03:05Z', '2024-01-04T01:04:05Z', '2023-01-01T00:00:00Z', '2024-01-06T03:04:05Z'].map((t) => relativeTime(t, NOW)))
      .toEqual(['just now', '1 minute ago', '1 day ago', '1 year ago', 'in 1 day'])
    expect([timeText(memoryIO(true), '2024-01-02T03:04:05Z'), timeText(memoryIO(false), '2024-01-02T03:04:05Z')]).toEqual(['3 days ago', '2024-01-02T03:04:05Z'])
  })
})

describe('list hints', () => {
  it('says how many of how many on a terminal, and nothing extra when piped', async () => {
    const tty = memoryIO(true)
    await printList(tty, columns(tty), { items: rows, responses: [response([['X-Total', '53'], ['X-Next-Page', '2']])] }, { noun: 'issues', where: 'root/demo' })
    expect(tty.err()).toBe('Showing 2 of 53 issues in root/demo; --all shows every page\n')
    const piped = memoryIO(false)
    await printList(piped, columns(piped), { items: rows, responses: [response([['X-Total', '53']])] }, { noun: 'issues' })
    expect(piped.err()).toBe('')
  })

  it('says when nothing matches, on a terminal only', async () => {
    const tty = memoryIO(true)
    await printList(tty, columns(tty), { items: [], responses: [response([['X-Total', '0']])] }, { noun: 'issues', where: 'root/demo' })
    expect([tty.out(), tty.err()]).toEqual(['', 'No issues in root/demo match.\n'])
    const piped = memoryIO(false)
    await printList(piped, columns(piped), { items: [], responses: [response([])] }, { noun: 'issues' })
    expect([piped.out(), piped.err()]).toEqual(['', ''])
  })
})

describe('--json', () => {
  it('indents and colours JSON on a terminal and keeps the bytes when piped', () => {
    const tty = memoryIO(true, 80, tags)
    printRaw(tty, '{"a":[1,"x",null],"b":{},"c":true}')
    expect(tty.out()).toBe('{\n  <u>"a"</u>: [\n    <y>1</y>,\n    <g>"x"</g>,\n    <d>null</d>\n  ],\n  <u>"b"</u>: {},\n  <u>"c"</u>: <y>true</y>\n}\n')
    const piped = memoryIO(false)
    printRaw(piped, '{"a":[1,"x",null]}')
    expect(piped.out()).toBe('{"a":[1,"x",null]}\n')
  })
})
