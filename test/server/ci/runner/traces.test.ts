// Job logs on disk: offsets, 416, masking across chunk boundaries, the size cap and binary output.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isCollabError } from '../../../../src/core/errors.js'
import { dataLayout, type DataLayout } from '../../../../src/core/paths.js'
import { appendTrace, capNotice, eraseTrace, readTrace, traceSize } from '../../../../src/server/ci/traces.js'

const BIG = 1024 * 1024

describe('job traces', () => {
  let root: string
  let layout: DataLayout
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'collab-traces-'))
    layout = dataLayout(root)
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  const append = (offset: number, chunk: string | Buffer, masks: string[] = [], capBytes = BIG) =>
    appendTrace(layout, 7, offset, Buffer.from(chunk), { masks, capBytes })

  /** Appends chunks one after the other, each at the size the previous answered, then the closing empty append. */
  async function appendAll(chunks: (string | Buffer)[], masks: string[] = [], capBytes = BIG) {
    let size = 0
    for (const c of chunks) size = await append(size, c, masks, capBytes)
    return append(size, '', masks, capBytes)
  }

  it('appends at the current size and reads from any offset', async () => {
    expect(traceSize(layout, 7)).toBe(0)
    expect(await readTrace(layout, 7)).toEqual(Buffer.alloc(0))
    expect(await append(0, 'hello ')).toBe(6)
    expect(await append(6, 'world\n')).toBe(12)
    expect(traceSize(layout, 7)).toBe(12)
    expect((await readTrace(layout, 7)).toString()).toBe('hello world\n')
    expect((await readTrace(layout, 7, 6)).toString()).toBe('world\n')
    expect((await readTrace(layout, 7, 99)).toString()).toBe('')
  })

  it('refuses an offset other than the size with 416 and Range 0-<size>', async () => {
    await append(0, 'abc')
    for (const offset of [0, 2, 4]) {
      const err = await append(offset, 'x').catch((e) => e)
      expect(isCollabError(err)).toBe(true)
      expect({ status: err.status, range: err.headers.Range, body: err.body }).toEqual({ status: 416, range: '0-3', body: { message: '416 Range Not Satisfiable' } })
    }
    expect((await readTrace(layout, 7)).toString()).toBe('abc')
  })

  it('keeps concurrent appends at one offset from both landing', async () => {
    const results = await Promise.allSettled([append(0, 'one'), append(0, 'two')])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(['one', 'two']).toContain((await readTrace(layout, 7)).toString())
  })

  it('replaces masked values with [MASKED]', async () => {
    await appendAll(['token=s3cr3t-value and again s3cr3t-value\n'], ['s3cr3t-value'])
    expect((await readTrace(layout, 7)).toString()).toBe('token=[MASKED] and again [MASKED]\n')
  })

  it('masks a value split over chunks, and never shows its start while the rest is awaited', async () => {
    const size1 = await append(0, 'pass: s3cr', ['s3cr3t-value'])
    // "s3cr" could begin the secret: it is held back, not readable.
    expect((await readTrace(layout, 7)).toString()).toBe('pass: ')
    expect(size1).toBe(6)
    const size2 = await append(size1, '3t-va', ['s3cr3t-value'])
    expect(size2).toBe(6)
    const size3 = await append(size2, 'lue done\n', ['s3cr3t-value'])
    expect((await readTrace(layout, 7)).toString()).toBe('pass: [MASKED] done\n')
    expect(size3).toBe(Buffer.byteLength('pass: [MASKED] done\n'))
  })

  it('masks values cut at every byte boundary, the URL-encoded form too, and releases a held prefix that was not a secret', async () => {
    const secret = 'p@ss word!'
    const text = `a ${secret} b ${encodeURIComponent(secret)} c p@ss wo\n`
    for (let cut = 1; cut < text.length; cut++) {
      await eraseTrace(layout, 7)
      await appendAll([text.slice(0, cut), text.slice(cut)], [secret])
      expect((await readTrace(layout, 7)).toString(), `cut at ${cut}`).toBe('a [MASKED] b [MASKED] c p@ss wo\n')
    }
    await eraseTrace(layout, 7)
    await appendAll(['ends with p@ss'], [secret])
    expect((await readTrace(layout, 7)).toString()).toBe('ends with p@ss')
  })

  it('masks the longer of two values when one begins the other, even split after the shorter', async () => {
    await appendAll(['x abc', 'def y abc z'], ['abc', 'abcdef'])
    expect((await readTrace(layout, 7)).toString()).toBe('x [MASKED] y [MASKED] z')
    await eraseTrace(layout, 7)
    await appendAll(['ends abc'], ['abc', 'abcdef'])
    expect((await readTrace(layout, 7)).toString()).toBe('ends [MASKED]')
  })

  it('stores the same bytes however the output is cut into appends', async () => {
    const masks = ['s3cret', 's3cret-longer', 'xyzzy']
    await fc.assert(fc.asyncProperty(
      fc.array(fc.oneof(fc.constantFrom(...masks, 's3c', 'xy', ' '), fc.string({ maxLength: 6 })), { maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 6 }),
      async (pieces, cuts) => {
        const text = pieces.join('')
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...at].map((start, i) => text.slice(start, [...at, text.length][i]))
        await eraseTrace(layout, 7)
        await appendAll([text], masks)
        const whole = await readTrace(layout, 7)
        await eraseTrace(layout, 7)
        await appendAll(chunks, masks)
        expect(await readTrace(layout, 7)).toEqual(whole)
        for (const m of masks) expect(whole.includes(m)).toBe(false)
      },
    ), { numRuns: 150 })
  })

  it('stops at the cap with one notice and drops the rest', async () => {
    const notice = capNotice(10)
    expect(notice).toBe("\nJob's log exceeded limit of 10 bytes.\nJob execution will continue but no more output will be collected.\n")
    const s1 = await append(0, '12345678', [], 10)
    const s2 = await append(s1, 'abcdef', [], 10)
    expect(s2).toBe(10 + Buffer.byteLength(notice))
    const s3 = await append(s2, 'more output', [], 10)
    expect(s3).toBe(s2)
    expect((await readTrace(layout, 7)).toString()).toBe('12345678ab' + notice)
  })

  it('adds the notice when a log that filled the cap exactly grows', async () => {
    const s1 = await append(0, '1234567890', [], 10)
    expect(s1).toBe(10)
    const s2 = await append(s1, 'x', [], 10)
    expect((await readTrace(layout, 7)).toString()).toBe('1234567890' + capNotice(10))
    expect(s2).toBe(traceSize(layout, 7))
  })

  it('stores binary output byte for byte', async () => {
    const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0a, 0xc3, 0x28, 0x1b, 0x5b])
    const half = await append(0, bytes.subarray(0, 4), ['never'])
    await append(half, bytes.subarray(4), ['never'])
    expect(await readTrace(layout, 7)).toEqual(bytes)
  })

  it('erases the log and what was held back', async () => {
    await append(0, 'abc s3', ['s3cr3t'])
    await eraseTrace(layout, 7)
    expect(traceSize(layout, 7)).toBe(0)
    expect(readdirSync(layout.traces)).toEqual([])
    expect(await append(0, 'new\n', ['s3cr3t'])).toBe(4)
  })
})
