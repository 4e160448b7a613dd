// `collab serve`: boot the data directory, listen, and shut down cleanly.
import net from 'node:net'
import { streamLogger } from '../core/logger.js'
import { createServer } from './app.js'
import { boot } from './boot.js'
import { closeDatabase } from './store/db.js'

export interface ServeOptions {
  host: string
  port: number
  dataDir: string
  rootToken?: string
  rootPassword?: string
  /** Off: every GET is computed afresh (for measuring, or to rule the cache out when debugging). */
  responseCache?: boolean
  /** Addresses of reverse proxies whose X-Forwarded-Proto is believed. */
  trustedProxies?: readonly string[]
  log: (line: string) => void
  /** The built-in shell runner: on by default when listening on loopback, one job per core. */
  runner?: { enabled?: boolean; concurrency?: number }
}

/** Jobs run shell commands as the server's user: by default only a server reachable from this machine alone runs them. */
export const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host)

/**
 * Fails as listen would (EADDRINUSE, EACCES) before anything is created: a busy port must not leave behind a new
 * database and a root token that is never shown. Port 0 always binds.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()))
  })
}

export async function startServer(opts: ServeOptions) {
  await checkPortFree(opts.port, opts.host)
  const log = streamLogger(opts.log)
  const { app, root } = boot({
    dataDir: opts.dataDir, log, rootToken: opts.rootToken, rootPassword: opts.rootPassword,
    responseCache: opts.responseCache, trustedProxies: opts.trustedProxies,
  })
  const server = createServer(app, { runner: { enabled: opts.runner?.enabled ?? isLoopbackHost(opts.host), concurrency: opts.runner?.concurrency } })
  let url: string
  try {
    ;({ url } = await server.listen(opts.port, opts.host))
  } catch (err) {
    closeDatabase(app.db)
    throw err
  }
  return {
    url: connectableUrl(url),
    dataDir: opts.dataDir,
    rootTokenCreated: root.created,
    rootToken: root.token,
    async close() {
      await server.close()
      closeDatabase(app.db)
    },
  }
}

/** A server bound to every interface is reached, and stored in the CLI config, through loopback. */
export function connectableUrl(url: string) {
  return url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:')
}
