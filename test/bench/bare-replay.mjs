// Baseline for the mixed workload: a bare node:http server answering every request, whatever its method and path, with one recorded response.
import http from 'node:http'
import { readFileSync } from 'node:fs'

const { body, headers } = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const server = http.createServer((req, res) => {
  // Read what a client sends before answering, as a real server must.
  req.resume()
  req.on('end', () => {
    res.writeHead(200, headers)
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
