// How requests reach the server. node:http(s) by default: the first global fetch() costs ~100 ms on these machines
// (undici compiles its WASM parser, and the tier-up keeps the process alive after the response), which alone would
// break the CLI's 200 ms start-up budget. fetchTransport adapts global fetch for callers that want it.

export interface TransportRequest {
  method: string
  url: URL
  headers: Record<string, string>
  body?: string | Uint8Array
  /** Give up after this long without an answer (completion must not hang a shell on a stalled server). */
  timeoutMs?: number
}

export interface TransportResponse {
  status: number
  statusText: string
  /** Names as the server sent them, in order. */
  headers: [name: string, value: string][]
  text: string
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>

export const nodeTransport: Transport = async ({ method, url, headers, body, timeoutMs }) => {
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http')
  const outgoing = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: outgoing }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        const pairs: [string, string][] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i], res.rawHeaders[i + 1]])
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: pairs, text: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.on('error', reject)
    if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.end(body)
  })
}

export const fetchTransport = (fetchImpl: typeof fetch = fetch): Transport => async ({ method, url, headers, body }) => {
  const res = await fetchImpl(url, { method, headers, body })
  return { status: res.status, statusText: res.statusText, headers: [...res.headers], text: await res.text() }
}
