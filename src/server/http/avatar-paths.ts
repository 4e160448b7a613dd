// The web path of a user's avatar (GitLab's /uploads/-/system/user/avatar/:id/:filename), public as on GitLab.
import { readAvatar } from '../services/markup/avatars.js'
import type { AppDeps } from '../context.js'
import type { Router } from './router.js'

export function mountAvatarPaths(router: Router, app: AppDeps) {
  router.get('/uploads/-/system/user/avatar/:id/:filename', async (req, res) => {
    const id = /^\d{1,15}$/.test(req.params.id!) ? Number(req.params.id) : 0
    const file = id ? await readAvatar(app, id, req.params.filename!) : null
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"404 Not Found"}')
      return
    }
    res.writeHead(200, {
      'Content-Type': file.type, 'Content-Length': String(file.data.length), 'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=0',
    }).end(file.data)
  })
}
