import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  collection, compactAfterBursts, compactWhenQuiet, heapSizes, MIN_GROWTH_BYTES, QUIET_MS, SETTLE_MS, SETTLE_TRIES, type HeapSizes,
} from '../../src/server/compact-when-quiet.js'

const MB = 1024 * 1024

/** The compaction with a timer queue the test fires by hand and a heap whose sizes the test sets. */
function harness(heap: HeapSizes, onCollect: (kind: 'full' | 'young', heap: HeapSizes) => void = () => {}) {
  const timers: { run: () => void; ms: number; cleared: boolean; unref(): void }[] = []
  const collected: string[] = []
  const delays: number[] = []
  const compaction = compactWhenQuiet({
    heapSizes: () => ({ ...heap }),
    collect: (kind) => {
      collected.push(kind)
      onCollect(kind, heap)
    },
    setTimeout: (run, ms) => {
      const t = { run, ms, cleared: false, unref() {} }
      timers.push(t)
      return t
    },
    clearTimeout: (t) => void ((t as { cleared: boolean }).cleared = true),
  })
  const armed = () => timers.filter((t) => !t.cleared)
  return {
    compaction, collected, delays,
    armed: () => armed().length,
    /** Runs the one timer armed, as its time comes. */
    fire() {
      const live = armed()
      expect(live).toHaveLength(1)
      const [t] = live
      t.cleared = true
      delays.push(t.ms)
      t.run()
    },
  }
}

/** What a full collection and a young one leave of a heap in this test. */
const v8Like = (kind: 'full' | 'young', heap: HeapSizes) => {
  if (kind === 'full') heap.oldHeld = 40 * MB
  else heap.youngHeld = 1 * MB
}

describe('compaction when the server goes quiet', () => {
  it('compacts the old generation the first time a look finds no request since the last, then collects the young one', () => {
    const heap = { oldHeld: 25 * MB, youngHeld: 32 * MB }
    const h = harness(heap, v8Like)
    for (let i = 0; i < 100; i++) h.compaction.request()
    heap.oldHeld = 80 * MB
    h.fire() // requests came since the timer was armed: look again later
    expect(h.collected).toEqual([])
    h.fire()
    expect(h.collected).toEqual(['full'])
    h.fire()
    expect(h.collected).toEqual(['full', 'young'])
    expect(h.delays).toEqual([QUIET_MS, QUIET_MS, SETTLE_MS])
    expect(h.armed()).toBe(0)
  })

  it('never collects while requests keep coming, and keeps one timer for all of them', () => {
    const heap = { oldHeld: 20 * MB, youngHeld: 32 * MB }
    const h = harness(heap, v8Like)
    heap.oldHeld = 200 * MB
    for (let look = 0; look < 20; look++) {
      for (let i = 0; i < 50; i++) h.compaction.request()
      h.fire()
    }
    expect(h.collected).toEqual([])
    expect(h.delays).toEqual(Array(20).fill(QUIET_MS))
  })

  it('makes no full collection when the old generation grew by less than its threshold since the last one', () => {
    const heap = { oldHeld: 10 * MB, youngHeld: 1 * MB }
    const h = harness(heap, v8Like)
    h.compaction.request()
    heap.oldHeld = 10 * MB + MIN_GROWTH_BYTES - 1
    h.fire()
    expect(h.collected).toEqual([])
    expect(h.armed()).toBe(0)
    h.compaction.request()
    heap.oldHeld = 10 * MB + MIN_GROWTH_BYTES
    h.fire()
    expect(h.collected).toEqual(['full'])
  })

  it('counts the growth from what the last full collection left held, so a small burst after it collects nothing', () => {
    const heap = { oldHeld: 10 * MB, youngHeld: 1 * MB }
    const h = harness(heap, v8Like)
    h.compaction.request()
    heap.oldHeld = 80 * MB
    h.fire()
    expect(h.collected).toEqual(['full'])
    // V8 kept 40 MB of partly used pages: another 15 MB is not enough for another collection, 16 MB is.
    h.compaction.request()
    heap.oldHeld = 40 * MB + MIN_GROWTH_BYTES - 1
    h.fire()
    expect(h.collected).toEqual(['full'])
    h.compaction.request()
    heap.oldHeld = 40 * MB + MIN_GROWTH_BYTES
    h.fire()
    expect(h.collected).toEqual(['full', 'full'])
  })

  it('counts from the least the old generation held at a quiet look since, as V8 gives pages back after a collection', () => {
    const heap = { oldHeld: 10 * MB, youngHeld: 1 * MB }
    const h = harness(heap)
    h.compaction.request()
    heap.oldHeld = 60 * MB
    h.fire()
    expect(h.collected).toEqual(['full'])
    // Still 60 MB as the collection returns, then V8's sweeping lets 25 MB go.
    h.compaction.request()
    heap.oldHeld = 35 * MB
    h.fire()
    h.compaction.request()
    heap.oldHeld = 35 * MB + MIN_GROWTH_BYTES
    h.fire()
    expect(h.collected).toEqual(['full', 'full'])
  })

  it(`tries the young collection ${SETTLE_TRIES} times while V8 keeps its young generation large, then leaves it to V8`, () => {
    const heap = { oldHeld: 20 * MB, youngHeld: 32 * MB }
    const h = harness(heap)
    h.compaction.request()
    h.fire()
    expect(h.collected).toEqual([])
    for (let i = 0; i < SETTLE_TRIES; i++) h.fire()
    expect(h.collected).toEqual(Array(SETTLE_TRIES).fill('young'))
    expect(h.armed()).toBe(0)
  })

  it('a request while it waits to collect the young generation puts it back to looking for quiet every second', () => {
    const heap = { oldHeld: 20 * MB, youngHeld: 32 * MB }
    const h = harness(heap, (kind, heap) => kind === 'full' && (heap.oldHeld = 20 * MB))
    h.compaction.request()
    heap.oldHeld = 60 * MB
    h.fire()
    expect(h.collected).toEqual(['full'])
    h.compaction.request()
    // The long wait is cleared: the new burst's end is looked for every QUIET_MS again.
    h.fire()
    expect(h.collected).toEqual(['full'])
    expect(h.delays).toEqual([QUIET_MS, QUIET_MS])
    h.fire()
    expect(h.collected).toEqual(['full', 'young'])
    expect(h.delays).toEqual([QUIET_MS, QUIET_MS, SETTLE_MS])
  })

  it('stop clears its timer', () => {
    const h = harness({ oldHeld: 60 * MB, youngHeld: 32 * MB })
    h.compaction.request()
    expect(h.armed()).toBe(1)
    h.compaction.stop()
    expect(h.armed()).toBe(0)
  })
})

describe('compaction after bursts of HTTP requests', () => {
  it('hears each request an HTTP server of the process starts, until it is stopped', async () => {
    const armed: number[] = []
    const heap = { oldHeld: 20 * MB, youngHeld: 1 * MB }
    const stop = compactAfterBursts({
      heapSizes: () => heap, collect: () => {}, clearTimeout: () => {},
      setTimeout: (_run, ms) => (armed.push(ms), { unref() {} }),
    })
    const server = createServer((_req, res) => res.end('ok'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
    try {
      expect(await (await fetch(url)).text()).toBe('ok')
      expect(armed).toEqual([QUIET_MS])
      stop()
      // Stopping cleared its timer: a request it still heard would arm a new one.
      await (await fetch(url)).text()
      expect(armed).toEqual([QUIET_MS])
    } finally {
      stop()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe("V8's collections", () => {
  it('a full collection frees what nothing reaches, and leaves no gc in contexts made after it', async () => {
    let target: object | undefined = { big: 'x'.repeat(1000) }
    const ref = new WeakRef(target)
    target = undefined
    // A WeakRef keeps its target through the job that made it.
    await new Promise((resolve) => setImmediate(resolve))
    collection('full')
    expect(ref.deref()).toBeUndefined()
    expect(runInNewContext('typeof gc')).toBe('undefined')
  })

  it('a young collection runs, and the sizes it reads are V8s', () => {
    collection('young')
    const sizes = heapSizes()
    expect(sizes.youngHeld).toBeGreaterThan(0)
    expect(sizes.oldHeld).toBeGreaterThan(0)
  })
})
