// Baseline for the mixed workload: a bare node:http server answering each request with collab's own recorded bytes for
// its kind (one issue, a list page under its filter, a created issue, an edited title, added labels).
import http from 'node:http'
import { readFileSync } from 'node:fs'

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8'))

/** The kind of a request, as mixed.ts records it: the filter of a list page is its query without the page. */
function kindOf(method, url, body) {
  if (method === 'POST') return 'create'
  if (method === 'PUT') return body.includes('add_labels') ? 'label' : 'title'
  const [path, query = ''] = url.split('?')
  if (/\/issues\/\d+$/.test(path)) return 'issue'
  return `list:${query.split('&').filter((p) => p && !p.startsWith('page=')).join('&')}`
}

const server = http.createServer((req, res) => {
  // Read what a client sends before answering, as a real server must.
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const r = recorded[kindOf(req.method, req.url, Buffer.concat(chunks).toString('utf8'))]
    if (!r) { res.writeHead(404); res.end(); return }
    res.writeHead(r.status, r.headers)
    res.end(r.body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
