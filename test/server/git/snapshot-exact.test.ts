// A snapshot entry holds exactly the size its tar header announced, even when the file came up short while it was read.
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import { exactly } from '../../../src/server/git/snapshot.js'

describe('snapshot entries', () => {
  it('fills a file cut shorter while read with zeros up to its announced size, and passes a whole one unchanged', async () => {
    const short = await buffer(Readable.from([Buffer.from('abc')]).pipe(exactly(70_000)))
    expect([short.length, short.subarray(0, 3).toString(), short.subarray(3).every((b) => b === 0)]).toEqual([70_000, 'abc', true])
    const whole = await buffer(Readable.from([Buffer.from('hello'), Buffer.from(' world')]).pipe(exactly(11)))
    expect(whole.toString()).toBe('hello world')
  })
})
