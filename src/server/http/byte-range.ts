// Byte ranges for raw answers that offer them (`Accept-Ranges: bytes`, the job log): a follower asks `bytes=N-` for what
// was appended since it last read. GitLab's own trace endpoint ignores Range; answering 206 only saves bytes, and a
// client that asked nothing still gets the whole body.

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  raw: Buffer | string
}

/** `bytes=N-`, `bytes=N-M` or `bytes=-N` against `size`; null for anything else (several ranges, other units). */
export function parseByteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header)
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  if (m[2] !== '' && Number(m[2]) < start) return null
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}

/** The 206 (or 416) answer to a GET's Range header, or the answer unchanged when no range applies. */
export function withByteRange(method: string, rangeHeader: string | undefined, answer: RawAnswer): RawAnswer {
  if (method !== 'GET' || !rangeHeader || answer.status !== 200 || answer.headers['Accept-Ranges'] !== 'bytes') return answer
  const body = typeof answer.raw === 'string' ? Buffer.from(answer.raw) : answer.raw
  const range = parseByteRange(rangeHeader, body.length)
  if (range === null) return answer
  if (range === 'unsatisfiable') {
    const headers = { ...answer.headers, 'Content-Range': `bytes */${body.length}`, 'Content-Length': '0' }
    return { status: 416, headers, raw: '' }
  }
  const part = body.subarray(range.start, range.end + 1)
  const headers = { ...answer.headers, 'Content-Range': `bytes ${range.start}-${range.end}/${body.length}`, 'Content-Length': String(part.length) }
  return { status: 206, headers, raw: part }
}
