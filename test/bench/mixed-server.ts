// The mixed benchmark's server: `collab serve` run from the sources (under tsx), so it measures the tree as it is, built or not.
import { startServer } from '../../src/server/serve.js'

const [dataDir, rootToken] = process.argv.slice(2)
const server = await startServer({ host: '127.0.0.1', port: 0, dataDir, rootToken, log: (line) => process.stderr.write(`${line}\n`) })
console.log(server.url)
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)))
