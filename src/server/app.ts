// createServer(deps): the HTTP face of collab. Nothing listens until listen() is called, so tests build a fresh one each.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { ContractTree } from '../contract/index.js'
import type { AppDeps } from './context.js'
import { HANDLERS as GROUP_HANDLERS } from './handlers.generated.js'
import { ROUTE_GROUPS } from './routes.generated.js'
import { watchWebhooks } from './services/hooks/hooks-dispatch.js'
import { watchRemoteMirrors } from './services/repository/remote-mirror-sync.js'
import { mountUploadPaths } from './http/upload-paths.js'
import { watchEvents } from './services/users/events.js'
import { watchMergeRequestBranches } from './services/merge-requests/merge-request-status.js'
import { mountGitHttp } from './http/git-http.js'
import { closeCatFiles } from './git/cat-file.js'
import { mountContract, type Handlers, type RouteGroup } from './http/mount.js'
import { JSON_TYPE, routeNotAllowed, routeNotFound, sendError } from './http/respond.js'
import { Router } from './http/router.js'
import { mountWebAuth } from './http/web-auth.js'
import { isPagePath, isWebPath, mountWeb, webNotFound } from './web/routes.js'
import { mountAvatarPaths } from './http/avatar-paths.js'
import { scheduleMembershipExpiry } from './services/projects/members.js'
import { scheduleRepositoryChecks } from './services/repository/repository-checks.js'
import { startCi } from './ci/lifecycle-runtime.js'
import { pipelineOnOpened, pipelinesOnPush } from './ci/triggers.js'
import { onMergeRequestOpened, onRefsMoved } from './app-events.js'
import { watchAutoMerges } from './services/merge-requests/auto-merge-watch.js'
import { watchCommitClosing } from './services/issuables/commit-closing.js'

export interface CollabServer {
  handler: http.RequestListener
  listen(port: number, host?: string): Promise<{ url: string; port: number }>
  close(): Promise<void>
  /** Settles once the first response has been sent (or its connection closed). */
  firstAnswer: Promise<void>
}

/**
 * The handlers of every resource group of the contract, found by scripts/registries.mjs (a handlers module names its
 * group in `satisfies Handlers<typeof contract.<group>>`), each imported on the group's first request: a group
 * declared without handlers does not compile.
 */
const HANDLERS: { [G in keyof ContractTree]: () => Promise<Handlers<ContractTree[G]>> } = GROUP_HANDLERS

/** Every group's routes, from the build's route list (scripts/route-list.mjs): one for each group of the contract. */
const ROUTES: { [G in keyof ContractTree]: RouteGroup } = ROUTE_GROUPS

/** GitLab's JSON error written straight to a socket no route will answer, closing the connection after it. */
function endSocket(socket: Duplex, status: number, reason: string, body: unknown, head: boolean) {
  const text = JSON.stringify(body)
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${head ? '' : text}`)
}

/** A request's own read failures (a client that hung up) are the route's business, answered there or not at all. */
const ignoreStreamError = () => {}

/** CI jobs run in runners, never here: `collab serve` starts its own as a child process (serve.ts). */
export function createServer(app: AppDeps): CollabServer {
  watchMergeRequestBranches(app)
  // Services announce pushes and new merge requests; CI hears them here, so ci/ never imports services/.
  onRefsMoved(app, pipelinesOnPush)
  onMergeRequestOpened(app, pipelineOnOpened)
  watchAutoMerges(app)
  watchCommitClosing(app)
  const stopWebhooks = watchWebhooks(app)
  // Push mirrors follow every push in the background; stopping ends their git commands and retries.
  const stopMirrors = watchRemoteMirrors(app)
  watchEvents(app)
  const router = new Router({
    // Grape's route-level 405 is the API's (and OAuth's and git's): a page path asked with another method is simply not
    // there, as Rails answers it (POST /nope must not turn into 405 because GET /nope may be a user's page).
    onNoMatch: (req, res, allowed) => (allowed.length && !isPagePath(req.path) ? routeNotAllowed(res, allowed)
      : isWebPath(req) ? webNotFound(app, req, res) : routeNotFound(res)),
    onError: (err, _req, res) => sendError(res, err, app.log),
    prelude: (req, res, next) => {
      // After a request asking to upgrade (curl --http2 sends `Upgrade: h2c`), node reads nothing more on the connection
      // even when no one takes the upgrade: closing it after the answer keeps the client from waiting on it forever.
      if (req.headers.upgrade !== undefined) res.setHeader('Connection', 'close')
      // Routes that read or write these streams hear their errors themselves; an error no one listens for (a client gone
      // mid-answer, a write after the end, a pipe that re-emits) would otherwise be thrown at the process.
      req.on('error', ignoreStreamError)
      res.on('error', (err) => app.log.warn(`writing an answer to ${req.method} ${req.url}: ${err.message}`))
      next()
    },
  })
  mountWebAuth(router, app)
  mountGitHttp(router, app)
  mountContract(router, app, ROUTES, HANDLERS)
  mountUploadPaths(router)
  // Last: the pages' patterns take what the API, git and uploads did not.
  mountWeb(router, app)
  mountAvatarPaths(router, app)

  const handler: http.RequestListener = router.handler
  const server = http.createServer({ keepAliveTimeout: 5000 }, handler)
  const firstAnswer = new Promise<void>((resolve) => server.once('request', (_req, res: http.ServerResponse) => res.once('close', resolve)))
  // Node answers an Expect other than 100-continue with a bodiless 417; GitLab's nginx ignores it and serves the request.
  server.on('checkExpectation', handler)
  // Requests the parser refuses never reach a route, but clients still parse the answer as GitLab's JSON error.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable) return
    const [status, text] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request']
    // An answer to HEAD has no body: a client would read one as a broken next response.
    const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD '
    endSocket(socket, status, text, { message: status === 431 ? `431 ${text}` : '400 Bad request' }, head)
  })
  // Unheard, a CONNECT is closed unanswered; nginx in front of GitLab refuses it with a 405.
  server.on('connect', (_req, socket: Duplex) => endSocket(socket, 405, 'Method Not Allowed', { error: '405 Not Allowed' }, false))

  // Periodic work runs only while listening, so a server built and never started stays inert.
  let stopRepositoryChecks: (() => void) | undefined
  let stopMembershipExpiry: (() => void) | undefined
  let stopCi: (() => Promise<void>) | undefined

  return {
    handler,
    firstAnswer,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          server.off('error', reject)
          stopRepositoryChecks ??= scheduleRepositoryChecks(app)
          stopMembershipExpiry ??= scheduleMembershipExpiry(app)
          const addr = server.address() as AddressInfo
          const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
          const url = `http://${shown}:${addr.port}`
          stopCi ??= startCi(app, { url: url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:') })
          resolve({ url, port: addr.port })
        })
      })
    },
    async close() {
      // A runner child is stopped before this (serve.ts), so its running jobs are reported while the server answers.
      await stopCi?.()
      stopCi = undefined
      // In-flight requests finish; idle keep-alive sockets are closed so close() resolves promptly.
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      stopRepositoryChecks?.()
      stopMembershipExpiry?.()
      await app.tasks.idle()
      await closeCatFiles(app.layout.repositories)
      await stopWebhooks()
      await stopMirrors()
    },
  }
}
