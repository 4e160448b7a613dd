// Templates: gitignores, licenses, .gitlab-ci.yml files and Dockerfiles.
import type { contract } from '../../contract/index.js'
import type { RequestContext } from '../context.js'
import type { Handlers } from '../http/mount.js'
import * as templates from '../services/markup/index.js'

const list = (kind: templates.TemplateKind) => (_input: unknown, ctx: RequestContext) => {
  const { rows, total } = templates.listTemplates(ctx, kind)
  return { status: 200, body: rows, total }
}
const get = (kind: templates.TemplateKind) => (input: { key: string }) => ({ status: 200, body: templates.getTemplate(kind, input.key) })

export const templateHandlers = {
  listGitignoreTemplates: list('gitignores'),
  getGitignoreTemplate: get('gitignores'),
  listGitlabCiYmlTemplates: list('gitlab_ci_ymls'),
  getGitlabCiYmlTemplate: get('gitlab_ci_ymls'),
  listDockerfileTemplates: list('dockerfiles'),
  getDockerfileTemplate: get('dockerfiles'),
  listLicenseTemplates: (input, ctx) => {
    const { rows, total } = templates.listLicenses(ctx, input.popular)
    return { status: 200, body: rows, total }
  },
  getLicenseTemplate: (input, ctx) => ({ status: 200, body: templates.getLicense(ctx, input.key, input) }),
} satisfies Handlers<typeof contract.templates>
