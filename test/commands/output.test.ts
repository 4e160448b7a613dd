// Output shapes: tab-separated lines when piped, an aligned table on a terminal, colour only when allowed.
import { describe, expect, it } from 'vitest'
import { colorLevel, plainStyle, withColors, type IO } from '../../src/cli/io.js'
import { printFields, printRaw, printTable, status, type Column } from '../../src/cli/output.js'

function memoryIO(tty: boolean, level: 0 | 1 = 0): IO & { out: () => string; err: () => string } {
  let out = ''
  let err = ''
  return {
    stdout: { write: (t) => void (out += t) },
    stderr: { write: (t) => void (err += t) },
    stdoutIsTTY: tty,
    canPrompt: false,
    columns: tty ? 80 : undefined,
    colorLevel: level,
    color: plainStyle,
    env: {},
    cwd: '/',
    readStdin: async () => '',
    onSignal: () => () => {},
    out: () => out,
    err: () => err,
  }
}

type Row = { id: number; path: string; description: string | null }
const columns: Column<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'PATH', value: (r) => r.path, style: (text) => `\u001b[4m${text}\u001b[24m` },
  { header: 'DESCRIPTION', value: (r) => r.description },
]
const rows: Row[] = [{ id: 12, path: 'group/project', description: 'two\nlines' }, { id: 3, path: 'a/b', description: null }]

describe('printTable', () => {
  it('writes tab-separated lines without a header or styles when piped', async () => {
    const io = memoryIO(false)
    await printTable(io, columns, rows)
    expect(io.out()).toBe('12\tgroup/project\ttwo lines\n3\ta/b\t\n')
  })

  it('writes an aligned table with a header and styles on a terminal', async () => {
    const io = memoryIO(true)
    await printTable(io, columns, rows)
    // Styles are escape sequences: they take no columns, so the padding counts the text alone.
    expect(io.out()).toBe('ID  PATH           DESCRIPTION\n12  \u001b[4mgroup/project\u001b[24m  two lines\n3   \u001b[4ma/b\u001b[24m\n')
  })

  it('writes nothing for no rows', async () => {
    const io = memoryIO(true)
    await printTable(io, columns, [])
    expect(io.out()).toBe('')
  })
})

describe('printFields, printRaw, status', () => {
  it('prints every field piped and only the set ones, aligned, on a terminal', () => {
    const piped = memoryIO(false)
    printFields(piped, [['id', 1], ['forked_from', undefined], ['web_url', 'http://h/g/p']])
    expect(piped.out()).toBe('id\t1\nforked_from\t\nweb_url\thttp://h/g/p\n')
    const tty = memoryIO(true)
    printFields(tty, [['id', 1], ['forked_from', undefined], ['web_url', 'http://h/g/p']])
    expect(tty.out()).toBe('id:      1\nweb_url: http://h/g/p\n')
  })

  it('prints a body unchanged with one final newline, and nothing for an empty body', () => {
    const io = memoryIO(false)
    printRaw(io, '{"a":1}')
    printRaw(io, '[]\n')
    printRaw(io, '')
    expect(io.out()).toBe('{"a":1}\n[]\n')
  })

  it('reports status on stderr', () => {
    const io = memoryIO(false)
    status(io, 'Created project g/p')
    expect([io.out(), io.err()]).toEqual(['', 'Created project g/p\n'])
  })
})

describe('colours', () => {
  it.each([
    [{}, true, 1],
    [{}, false, 0],
    [{ NO_COLOR: '1' }, true, 0],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, 0],
    [{ FORCE_COLOR: '1' }, false, 1],
    [{ FORCE_COLOR: '0' }, true, 0],
    [{ TERM: 'dumb' }, true, 0],
    [{ TERM: 'xterm-256color' }, true, 2],
    [{ COLORTERM: 'truecolor' }, true, 3],
  ])('%j on a TTY=%s gives level %i', (env, tty, level) => expect(colorLevel(env, tty)).toBe(level))

  it('loads chalk only for a colour level above 0', async () => {
    const plain = memoryIO(true, 0)
    expect((await withColors(plain)).color).toBe(plainStyle)
    expect((await withColors(memoryIO(true, 1))).color.green('ok')).toBe('\u001b[32mok\u001b[39m')
  })
})
