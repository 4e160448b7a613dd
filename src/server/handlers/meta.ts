// Version and the OpenAPI document.
import type { contract } from '../../contract/index.js'
import { GITLAB_COMPAT_VERSION, VERSION } from '../../core/version.js'
import type { Handlers } from '../http/mount.js'

let openApiCache: { base: string; doc: unknown } | null = null

const version = () => ({
  status: 200,
  body: { version: `${GITLAB_COMPAT_VERSION}-collab`, revision: VERSION, kas: { enabled: false, externalUrl: null, version: null }, enterprise: false },
})

export const metaHandlers = {
  getVersion: version,
  getMetadata: version,
  // The whole contract loads here, on the document's first request, not with the version every client asks first.
  getOpenApi: async (_input, ctx) => {
    if (openApiCache?.base !== ctx.apiUrl) {
      const [{ contract: whole }, { buildOpenApi }] = await Promise.all([import('../../contract/index.js'), import('../../contract/openapi.js')])
      openApiCache = { base: ctx.apiUrl, doc: buildOpenApi(whole, VERSION, ctx.apiUrl) }
    }
    return { status: 200, body: openApiCache.doc }
  },
} satisfies Handlers<typeof contract.meta>
