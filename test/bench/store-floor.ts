// The storage floor for POST /projects/:id/issues: a bare node:http server that makes exactly the store writes collab
// makes for a new issue (iid, row, label, user-agent detail) in the same group commit, then answers with recorded
// bytes. No routing, authentication, validation or presentation: what is left is what SQLite costs.
import http from 'node:http'
import { readFileSync } from 'node:fs'
import { closeDatabase, committed, openDatabase, transaction } from '../../src/server/store/db.js'
import * as store from '../../src/server/store/issues.js'

const [dbFile, routesFile, projectArg, labelArg] = process.argv.slice(2)
const projectId = Number(projectArg)
const labelId = Number(labelArg)
const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as Record<string, { body: string; headers: Record<string, string> }>
const db = openDatabase(dbFile)

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', async () => {
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string }
    const now = new Date().toISOString()
    transaction(db, () => {
      const iid = store.allocateIid(db, projectId, 'issues')
      const { id } = store.insertIssue(db, {
        project_id: projectId, iid, title: input.title, description: null, state: 'opened', author_id: 1, milestone_id: null,
        confidential: 0, discussion_locked: 0, due_date: null, created_at: now, updated_at: now,
      })
      store.addIssueLabels(db, id, [labelId])
      store.insertUserAgentDetail(db, id, String(req.headers['user-agent'] ?? ''), req.socket.remoteAddress ?? '')
    })
    await committed(db)
    const r = routes[req.url ?? '']
    res.writeHead(r ? 201 : 404, r?.headers)
    res.end(r?.body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${(server.address() as { port: number }).port}`))
process.on('SIGTERM', () => server.close(() => {
  closeDatabase(db)
  process.exit(0)
}))
