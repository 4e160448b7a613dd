// Templates (lib/api/templates.rb): .gitignore, license, .gitlab-ci.yml and Dockerfile templates, readable by anyone.
import { z } from 'zod'
import { defineEndpoint } from '../define.js'
import { bool, str } from '../params.js'

export const TemplatesList = z.object({ key: z.string(), name: z.string() })
export const Template = z.object({ name: z.string(), content: z.string() })
export const License = z.object({
  key: z.string(), name: z.string(), nickname: z.string().nullable(), featured: z.boolean(), html_url: z.string(),
  source_url: z.string().nullable(), description: z.string(), conditions: z.array(z.string()), permissions: z.array(z.string()),
  limitations: z.array(z.string()), content: z.string(),
})

const Key = { key: str() }

function templateEndpoints<K extends 'gitignores' | 'gitlab_ci_ymls' | 'dockerfiles'>(kind: K, what: string) {
  return {
    list: defineEndpoint({ method: 'GET', path: `/templates/${kind}`, summary: `List the ${what} templates`, auth: 'public', paginated: true, responses: { 200: z.array(TemplatesList) } }),
    get: defineEndpoint({ method: 'GET', path: `/templates/${kind}/:key`, summary: `Get a ${what} template`, auth: 'public', params: Key, responses: { 200: Template } }),
  }
}

const gitignores = templateEndpoints('gitignores', '.gitignore')
const ciYmls = templateEndpoints('gitlab_ci_ymls', '.gitlab-ci.yml')
const dockerfiles = templateEndpoints('dockerfiles', 'Dockerfile')

export const listGitignoreTemplates = gitignores.list
export const getGitignoreTemplate = gitignores.get
export const listGitlabCiYmlTemplates = ciYmls.list
export const getGitlabCiYmlTemplate = ciYmls.get
export const listDockerfileTemplates = dockerfiles.list
export const getDockerfileTemplate = dockerfiles.get

export const listLicenseTemplates = defineEndpoint({
  method: 'GET', path: '/templates/licenses', summary: 'List the license templates', auth: 'public', paginated: true,
  input: { popular: bool().optional() }, responses: { 200: z.array(License) },
})

export const getLicenseTemplate = defineEndpoint({
  method: 'GET', path: '/templates/licenses/:key', summary: 'Get a license template with its placeholders filled in', auth: 'optional',
  params: Key, input: { project: str().optional(), fullname: str().optional() }, responses: { 200: License },
})
