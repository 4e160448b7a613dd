// Version and the OpenAPI document.
import { contract } from '../../contract/index.js'
import { buildOpenApi } from '../../contract/openapi.js'
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
  getOpenApi: (_input, ctx) => {
    if (openApiCache?.base !== ctx.apiUrl) openApiCache = { base: ctx.apiUrl, doc: buildOpenApi(contract, VERSION, ctx.apiUrl) }
    return { status: 200, body: openApiCache.doc }
  },
} satisfies Handlers<typeof contract.meta>
