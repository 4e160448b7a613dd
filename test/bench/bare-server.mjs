// Baseline: a bare node:http server returning recorded bytes, so ratios measure only what collab adds.
import http from 'node:http'
import { readFileSync } from 'node:fs'

const routes = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const server = http.createServer((req, res) => {
  const r = routes[req.url]
  if (!r) { res.writeHead(404); res.end(); return }
  res.writeHead(200, r.headers)
  res.end(r.body)
})
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
