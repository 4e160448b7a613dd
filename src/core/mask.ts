// Masked variable values replaced by [MASKED] in a stream of log bytes, a value split over two chunks included: the
// end of a chunk that could start a value is held back until the next shows whether it does. Runners mask before
// they send a log (as gitlab-runner does); the server masks its in-process runner's log too.
const MASKED = Buffer.from('[MASKED]')

/** Each value and, where it differs, its URL-encoded form (how it appears inside URLs), longest first. */
export function maskBuffers(values: string[]): Buffer[] {
  const set = new Set<string>()
  for (const v of values) {
    if (v === '') continue
    set.add(v)
    set.add(encodeURIComponent(v))
  }
  return [...set].map((v) => Buffer.from(v)).sort((a, b) => b.length - a.length)
}

/**
 * Replaces every whole masked value in `data`; unless `final`, the longest end of the rest that is the start of
 * a masked value is returned as `keep` instead of being written.
 */
export function maskChunk(data: Buffer, masks: Buffer[], final: boolean): { out: Buffer; keep: Buffer } {
  if (masks.length === 0) return { out: data, keep: Buffer.alloc(0) }
  const parts: Buffer[] = []
  let pos = 0
  for (;;) {
    let at = -1
    let len = 0
    for (const m of masks) {
      const i = data.indexOf(m, pos)
      // Masks are longest first, so on a tie the longer value wins.
      if (i !== -1 && (at === -1 || i < at)) {
        at = i
        len = m.length
      }
    }
    // A value that runs to the end may be the start of a longer one ('abc' of 'abcdef'): wait for the rest.
    if (at === -1 || (!final && startsAMask(data.subarray(at), masks))) break
    parts.push(data.subarray(pos, at), MASKED)
    pos = at + len
  }
  const held = final ? 0 : heldLength(data, pos, masks)
  parts.push(data.subarray(pos, data.length - held))
  return { out: Buffer.concat(parts), keep: Buffer.from(data.subarray(data.length - held)) }
}

/** Whether `tail` is a proper start of some masked value (more bytes could complete it). */
const startsAMask = (tail: Buffer, masks: Buffer[]) => masks.some((m) => m.length > tail.length && m.subarray(0, tail.length).equals(tail))

function heldLength(data: Buffer, from: number, masks: Buffer[]): number {
  for (let n = Math.min(masks[0].length - 1, data.length - from); n > 0; n--) {
    if (startsAMask(data.subarray(data.length - n), masks)) return n
  }
  return 0
}
