// Git smart HTTP: `/<namespace>/<project>[.git]/info/refs`, `/git-upload-pack` and `/git-receive-pack`, answered by git http-backend.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pipeline, type Readable } from 'node:stream'
import type { RouteRequest, Router } from './router.js'
import { CollabError } from '../../core/errors.js'
import type { Logger } from '../../core/logger.js'
import type { AppDeps } from '../context.js'
import { gitAvailable } from '../git/exec.js'
import { readPushCommands } from '../git/push-commands.js'
import { startHttpBackend, type BackendRequest } from '../git/transport.js'
import { gitOverHttpAllowed } from '../services/instance/application-settings.js'
import { authorizeGit, authorizeWikiGit, gitUnavailable, pushHooks, receivePack, type GitAccess, type GitCredential } from '../services/repository/git-access.js'
import { prepareWikiRepository, receiveWikiPack, wikiProjectPath } from '../services/wikis/wikis-git.js'
import { afterCommit } from './mount.js'

// Namespaces may be nested groups, so the project path is everything before the action; `/api/…` is never a project.
const INFO_REFS = /^\/(?!api\/)(?<gitRepo>.+?)\/(?<gitAction>info\/refs)$/
const RPC = /^\/(?!api\/)(?<gitRepo>.+?)\/(?<gitAction>git-upload-pack|git-receive-pack)$/

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** A Basic username and password (a token under any username, `oauth2:<token>` included, or the account's password), else PRIVATE-TOKEN. */
export function gitCredential(req: IncomingMessage): GitCredential | null {
  const basic = header(req, 'authorization')?.match(/^Basic\s+(\S+)\s*$/i)?.[1]
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8')
    const password = decoded.slice(decoded.indexOf(':') + 1)
    if (decoded.includes(':') && password) return { login: decoded.slice(0, decoded.indexOf(':')), secret: password }
  }
  const token = header(req, 'private-token')?.trim()
  return token ? { login: null, secret: token } : null
}

// GitLab's words when enabled_git_access_protocol allows SSH only.
const httpNotAllowed = () => new CollabError('GIT_HTTP_DISABLED', 'Git access over HTTP is not allowed', { status: 403 })

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

function sendGitError(res: ServerResponse, err: unknown, log: Logger) {
  if (res.headersSent) {
    // git has already had its say (a push's report included); the failure is ours to log, not the client's to see.
    log.error('git over HTTP failed after the answer had started', err)
    if (!res.writableEnded) res.destroy()
  } else if (err instanceof CollabError) {
    sendText(res, err.status, err.message, err.headers)
  } else {
    log.error('git over HTTP failed', err)
    sendText(res, 500, '500 Internal Server Error')
  }
}

/**
 * Streams git's answer to the client; resolves when git has exited, so a push's ref updates are done by then.
 * With `holdOpen` the response stays open for the caller to end: a push reports done only after its bookkeeping.
 */
async function proxy(log: Logger, backend: BackendRequest, input: Readable, res: ServerResponse, holdOpen: boolean) {
  const answer = await startHttpBackend(backend, input)
  for (const [name, value] of answer.headers) res.appendHeader(name, value)
  res.writeHead(answer.status)
  answer.body.on('error', (err) => log.warn(`reading git http-backend output: ${err.message}`))
  answer.body.pipe(res, { end: !holdOpen })
  // A client that hangs up must not leave git blocked on a full pipe (and a push holding the repository lock).
  res.once('close', () => answer.body.destroy())
  const { code, stderr } = await answer.done
  if (code !== 0) log.warn(`git http-backend ${backend.pathInfo} exited with ${code}: ${stderr.trim()}`)
}

async function serveGit(app: AppDeps, req: RouteRequest, res: ServerResponse) {
  if (!(await gitAvailable())) throw gitUnavailable()
  if (!gitOverHttpAllowed(app)) throw httpNotAllowed()
  const action = req.params.gitAction
  const service = action === 'info/refs' ? req.query.service : action
  const repoPath = req.params.gitRepo.replace(/\.git$/i, '')
  const wiki = wikiProjectPath(app, repoPath)
  const access = await (wiki === null ? authorizeGit : authorizeWikiGit)(app, wiki ?? repoPath, service === 'git-receive-pack', gitCredential(req))
  const backend: BackendRequest = {
    projectRoot: app.layout.repositories,
    pathInfo: `/${access.project.id}${wiki === null ? '' : '.wiki'}.git/${action}`,
    method: req.method,
    query: req.search ? req.search.slice(1) : '',
    contentType: header(req, 'content-type'),
    contentLength: header(req, 'content-length'),
    contentEncoding: header(req, 'content-encoding'),
    gitProtocol: header(req, 'git-protocol'),
    remoteUser: access.push ? access.user!.username : undefined,
    remoteAddr: req.socket.remoteAddress,
  }
  if (wiki !== null) return serveWiki(app, access, backend, req, res)
  if (action !== 'git-receive-pack') return proxy(app.log, backend, req, res, false)
  // The commands come first in the body: read them to decide which protected-branch checks this push needs.
  const push = await readPushCommands(req, /^(x-)?gzip$/i.test(backend.contentEncoding ?? ''))
  backend.hooks = await pushHooks(app, access, push)
  try {
    await receivePack(app, access, () => proxy(app.log, backend, push.body, res, true))
    await afterCommit(app)
  } finally {
    if (res.headersSent) res.end()
  }
}

/** A wiki's fetches and pushes: no protected branches, no pipelines, no project bookkeeping. */
async function serveWiki(app: AppDeps, access: GitAccess, backend: BackendRequest, req: RouteRequest, res: ServerResponse) {
  await prepareWikiRepository(app, access)
  if (!backend.pathInfo.endsWith('/git-receive-pack')) return proxy(app.log, backend, req, res, false)
  try {
    await receiveWikiPack(app, access, () => proxy(app.log, backend, req, res, true))
  } finally {
    if (res.headersSent) res.end()
  }
}

export function mountGitHttp(router: Router, app: AppDeps) {
  const handle = (req: RouteRequest, res: ServerResponse) => {
    serveGit(app, req, res).catch((err) => sendGitError(res, err, app.log))
  }
  router.get(INFO_REFS, handle)
  router.post(RPC, handle)
}
