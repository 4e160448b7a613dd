// environment: in .gitlab-ci.yml on the built-in runner: jobs see CI_ENVIRONMENT_*, deployments follow their jobs
// (running, success, failed, blocked for a manual one), and stopping the environment runs its on_stop job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrace } from '../../../src/server/ci/traces.js'
import { expectStatus, request, type Api } from '../../helpers/api.js'
import { ciProject, jobNamed, projectPipelines, startCiServer, startGates, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

const CONFIG = `stages: [deploy, cleanup]
variables:
  APP: shop
deploy_review:
  stage: deploy
  script:
    - echo "env=$CI_ENVIRONMENT_NAME slug=$CI_ENVIRONMENT_SLUG url=$CI_ENVIRONMENT_URL action=$CI_ENVIRONMENT_ACTION tier=$CI_ENVIRONMENT_TIER"
    - until curl -sf "$GATE" > /dev/null; do sleep 0.1; done
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_ENVIRONMENT_SLUG.$APP.example.com
    on_stop: stop_review
    auto_stop_in: 1 week
deploy_broken:
  stage: deploy
  script: [exit 3]
  allow_failure: true
  environment: staging
deploy_prod:
  stage: deploy
  script: [echo prod]
  when: manual
  environment:
    name: production
    deployment_tier: production
stop_review:
  stage: cleanup
  script:
    - echo "stopping $CI_ENVIRONMENT_NAME action=$CI_ENVIRONMENT_ACTION url=$CI_ENVIRONMENT_URL"
  when: manual
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    action: stop
`

let server: TestServer
let gates: Awaited<ReturnType<typeof startGates>>

beforeAll(async () => {
  server = await startCiServer({ runner: true })
  gates = await startGates()
})
afterAll(async () => {
  gates.open('deploy')
  await server.close()
  await gates.close()
})

/** Polls a GET until `until` holds on its body (background work: the runner, the scheduler). */
async function poll(as: Api, path: string, until: (body: any) => boolean, query?: Record<string, string>): Promise<any> {
  for (let i = 0; ; i++) {
    const body = expectStatus(await as.get(path, { query }), 200).body
    if (until(body)) return body
    if (i > 600) throw new Error(`${path} stayed ${JSON.stringify(body)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const trace = async (jobId: number) => (await readTrace(server.app.layout, jobId)).toString('utf8')

describe('environment: in a pipeline', () => {
  it('deploys with CI_ENVIRONMENT_* set, deployments follow their jobs, and a stop runs the on_stop job', async () => {
    const { project, root } = await ciProject(server, 'review', null, { 'README.md': 'x' }, { visibility: 'public' })
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'GATE', value: gates.url('deploy') }), 201)
    expectStatus(await root.post(`/projects/${project.id}/repository/commits`, {
      branch: 'master', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CONFIG }],
    }), 201)
    const [p] = await projectPipelines(server, root, project.id)
    const deployments = `/projects/${project.id}/deployments`
    const environments = `/projects/${project.id}/environments`

    // The deploy job waits at its gate: its deployment runs, the broken one failed, the manual one is blocked.
    const during = await poll(root, deployments, (ds) => ds.length === 3 && ds[0].status === 'running' && ds[1].status === 'failed')
    expect(during.map((d: any) => [d.iid, d.environment.name, d.deployable.name, d.deployable.pipeline.id, d.status])).toEqual([
      [1, 'review/master', 'deploy_review', p.id, 'running'],
      [2, 'staging', 'deploy_broken', p.id, 'failed'],
      [3, 'production', 'deploy_prod', p.id, 'blocked'],
    ])
    const all = await poll(root, environments, (es) => es.length === 3)
    expect(all.map((e: any) => e.name)).toEqual(['review/master', 'staging', 'production'])
    const review = all[0]
    expect([review.state, review.tier, review.external_url, review.slug]).toEqual(['available', 'development', null, expect.stringMatching(/^review-master-[a-z0-9]{6}$/)])
    expect(expectStatus(await root.get(environments, { query: { name: 'production' } }), 200).body[0].tier).toBe('production')
    expect(expectStatus(await root.get(`${environments}/${review.id}`), 200).body.last_deployment).toBeNull()

    gates.open('deploy')
    await poll(root, `${deployments}/1`, (d) => d.status === 'success')
    const url = `https://${review.slug}.shop.example.com`
    const deployTrace = await trace(jobNamed(server, p.id, 'deploy_review').id)
    expect(deployTrace).toContain(`env=review/master slug=${review.slug} url=${url} action=start tier=development`)
    const deployed = expectStatus(await root.get(`${environments}/${review.id}`), 200).body
    expect([deployed.state, deployed.external_url, deployed.auto_stop_at !== null]).toEqual(['available', url, true])
    expect([deployed.last_deployment.iid, deployed.last_deployment.deployable.status, deployed.last_deployment.deployable.pipeline.id]).toEqual([1, 'success', p.id])

    // Stopping plays stop_review: the environment is stopping until the job succeeds, then stopped.
    const stopping = expectStatus(await root.post(`${environments}/${review.id}/stop`), 200).body
    expect(stopping.state).toBe('stopping')
    const stopped = await poll(root, `${environments}/${review.id}`, (e) => e.state === 'stopped')
    expect(stopped.auto_stop_at).toBeNull()
    const stopJob = jobNamed(server, p.id, 'stop_review')
    expect(stopJob.status).toBe('success')
    expect(await trace(stopJob.id)).toContain(`stopping review/master action=stop url=${url}`)
    // A stop job makes no deployment; the deploy job's stays the environment's last one.
    expect(expectStatus(await root.get(deployments), 200).body.map((d: any) => d.status)).toEqual(['success', 'failed', 'blocked'])
    expect((await waitForFinished(server, p.id, 60_000)).status).toBe('success')

    // The web pages, for anyone who reads the public project: states, the external link, the deployments.
    const web = `/${project.path_with_namespace}/-/environments`
    const list = await request(server, 'GET', web)
    expect([list.status, list.headers.get('content-security-policy')]).toEqual([200, expect.stringMatching(/^default-src 'none'/)])
    expect(list.text).toContain(`<a href="${server.url}${web}/${review.id}">review/master</a>`)
    expect(list.text).toContain('<span class="badge state-stopped">stopped</span>')
    expect(list.text).toContain(`<a href="${url}" rel="noopener noreferrer" class="external-url">${url}</a>`)
    const page = await request(server, 'GET', `${web}/${review.id}`)
    expect(page.status).toBe(200)
    expect(page.text).toMatch(/<table id="deployments">.*<td>#1<\/td><td><span class="ci-status ci-success">success<\/span><\/td>/s)
    expect(page.text).toContain(`>deploy_review</a>`)
    expect((await request(server, 'GET', `${web}/999`)).status).toBe(404)
  }, 120_000)
})
