// The web path of a project upload (GitLab 17's full_path, /-/project/:id/uploads/:secret/:filename), answered by the
// API's download route: the same checks, and the session cookie or a token authenticates as it does there.
import type { Router } from './router.js'
import { API_PREFIX } from './mount.js'

export function mountUploadPaths(router: Router) {
  router.get('/-/project/:id/uploads/:secret/:filename', (req, res) => {
    const at = req.url!.indexOf('?')
    const search = at < 0 ? '' : req.url!.slice(at)
    const { id, secret, filename } = req.params
    req.url = `${API_PREFIX}/projects/${encodeURIComponent(id)}/uploads/${encodeURIComponent(secret)}/${encodeURIComponent(filename)}${search}`
    router.handler(req, res)
  })
}
