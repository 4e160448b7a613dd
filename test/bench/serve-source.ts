// `collab serve` from the sources rather than dist/: argv is the data directory, the root token and `cache` or
// `no-cache`; prints the URL. For benchmarks of server code that the built CLI may not have yet.
import { boot } from '../../src/server/boot.js'
import { createServer } from '../../src/server/app.js'
import { closeDatabase } from '../../src/server/store/db.js'
import { silentLogger } from '../../src/core/logger.js'

const [dataDir, rootToken, cache] = process.argv.slice(2)
const { app } = boot({ dataDir, rootToken, log: silentLogger, responseCache: cache === 'cache' })
const server = createServer(app)
const { url } = await server.listen(0, '127.0.0.1')
console.log(url)
process.on('SIGTERM', async () => {
  await server.close()
  closeDatabase(app.db)
  process.exit(0)
})
