// The floor for `collab issue list --json`: node doing the same GET over node:http with the same token, printing the body.
import http from 'node:http'

const [url, token] = process.argv.slice(2)
http.get(url, { headers: { 'PRIVATE-TOKEN': token, Accept: 'application/json' } }, (res) => {
  const chunks = []
  res.on('data', (c) => chunks.push(c))
  res.on('end', () => process.stdout.write(Buffer.concat(chunks).toString('utf8') + '\n'))
})
