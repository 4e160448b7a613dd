// With the built-in runner, a job echoes variables defined at the instance, at two nested groups, at the project and
// by a trigger: GitLab's precedence (instance < farther group < nearer group < project < pipeline, all above the
// YAML's own), protected ones on protected refs only, masked ones masked in the log, and CI_PIPELINE_TRIGGERED and
// CI_TRIGGER_SHORT_TOKEN on the triggered pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrace } from '../../src/server/ci/traces.js'
import { api, createGroup, expectStatus, type Api } from '../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, waitForFinished } from '../helpers/ci.js'
import type { TestServer } from '../helpers/server.js'

const CONFIG = `variables:
  FROM_YAML: yaml
  YAML_VS_INSTANCE: yaml
show:
  script:
    - echo "A=$ONLY_INSTANCE B=$INSTANCE_VS_PARENT C=$PARENT_VS_CHILD D=$CHILD_VS_PROJECT E=$PROJECT_VS_PIPELINE"
    - echo "F=$FROM_YAML G=$YAML_VS_INSTANCE H=$PROTECTED_GROUP I=$EXPANDED T=\${CI_PIPELINE_TRIGGERED:-no} M=$MASKED_GROUP"
    - echo "S=\${CI_TRIGGER_SHORT_TOKEN:-none}"
`

let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ runner: true })
})
afterAll(() => server.close())

async function add(as: Api, path: string, variables: Record<string, string | { value: string; protected?: boolean; masked?: boolean }>) {
  for (const [key, v] of Object.entries(variables)) {
    expectStatus(await as.post(path, { key, ...(typeof v === 'string' ? { value: v } : v) }), 201)
  }
}

/** The trace line the job's script printed that starts with `prefix`. */
async function printed(pipelineId: number, prefix: string): Promise<string> {
  const done = await waitForFinished(server, pipelineId, 60_000)
  const trace = (await readTrace(server.app.layout, jobNamed(server, pipelineId, 'show').id)).toString('utf8')
  expect(done.status, trace).toBe('success')
  return trace.split(/\r?\n/).find((l) => l.startsWith(prefix)) ?? trace
}

describe('CI/CD variable precedence with the built-in runner', () => {
  it('gives each level its place, on a protected branch and through a trigger on an unprotected one', async () => {
    const root = api(server, server.rootToken)
    const parent = await createGroup(root, { name: 'Parent', path: 'parent' })
    const child = await createGroup(root, { name: 'Child', path: 'child', parent_id: parent.id })
    await add(root, '/admin/ci/variables', { ONLY_INSTANCE: 'instance', INSTANCE_VS_PARENT: 'instance', YAML_VS_INSTANCE: 'instance' })
    await add(root, `/groups/${parent.id}/variables`, {
      INSTANCE_VS_PARENT: 'parent', PARENT_VS_CHILD: 'parent', PROTECTED_GROUP: { value: 'guarded', protected: true },
      MASKED_GROUP: { value: 'group-secret-123', masked: true },
    })
    await add(root, `/groups/${child.id}/variables`, { PARENT_VS_CHILD: 'child', CHILD_VS_PROJECT: 'child', EXPANDED: 'from-$ONLY_INSTANCE' })
    const { project } = await ciProject(server, 'app', null, { 'README.md': 'x' }, { namespace_id: child.id })
    await add(root, `/projects/${project.id}/variables`, { CHILD_VS_PROJECT: 'project', PROJECT_VS_PIPELINE: 'project' })
    expectStatus(await root.post(`/projects/${project.id}/repository/commits`, {
      branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG }],
    }), 201)
    const [pushed] = await projectPipelines(server, root, project.id)
    expect(await printed(pushed.id, 'A=')).toBe('A=instance B=parent C=child D=project E=project')
    expect(await printed(pushed.id, 'F=')).toBe('F=yaml G=instance H=guarded I=from-instance T=no M=[MASKED]')
    expect(await printed(pushed.id, 'S=')).toBe('S=none')

    expectStatus(await root.post(`/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'master' }), 201)
    const trigger = expectStatus(await root.post(`/projects/${project.id}/triggers`, { description: 'ci' }), 201).body
    const triggered = expectStatus(await root.request('POST', `/projects/${project.id}/trigger/pipeline`, {
      form: { token: trigger.token, ref: 'feature', 'variables[PROJECT_VS_PIPELINE]': 'trigger' },
    }), 201).body
    expect(triggered.source).toBe('trigger')
    expect(await printed(triggered.id, 'A=')).toBe('A=instance B=parent C=child D=project E=trigger')
    expect(await printed(triggered.id, 'F=')).toBe('F=yaml G=instance H= I=from-instance T=true M=[MASKED]')
    expect(await printed(triggered.id, 'S=')).toBe(`S=${trigger.token.slice(6, 10)}`)
  })
})
