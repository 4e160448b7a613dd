// Variables in variables, run through the built-in runner: a job's variables reach its shell with their references
// expanded in GitLab's precedence (YAML, global and job, project, pipeline), raw values as written, references to
// what only the runner knows (CI_PROJECT_DIR) expanded by the runner, and artifact paths expanded by the runner with
// the job's variables.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrace } from '../../../src/server/ci/traces.js'
import { expectStatus } from '../../helpers/api.js'
import { ciProject, jobNamed, runPipeline, startCiServer, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer

beforeAll(async () => {
  server = await startCiServer({ runner: true })
})
afterAll(() => server.close())

/** The lines the job printed between its script's `echo "<<"` and `echo ">>"`, once the pipeline succeeded. */
async function printed(pipelineId: number, job: string): Promise<string[]> {
  const done = await waitForFinished(server, pipelineId, 60_000)
  const trace = (await readTrace(server.app.layout, jobNamed(server, pipelineId, job).id)).toString('utf8')
  expect(done.status, trace).toBe('success')
  const lines = trace.split(/\r?\n/).filter((l) => !l.includes('$ echo '))
  return lines.slice(lines.indexOf('<<') + 1, lines.indexOf('>>'))
}

describe('variables in variables', () => {
  it('expands a job variable that names another of the same job, and chains through global, job and project variables', async () => {
    const yaml = `variables:
  ROOT_DIR: "/srv/\${JOB_PART}"
  GLOBAL_ONLY: global
show:
  variables:
    FLAGS: "-al"
    ARGS: "$FLAGS"
    JOB_PART: "$GLOBAL_ONLY-job"
    OUT: "$ROOT_DIR/out"
    FROM_PROJECT: "p=$PROJECT_ONE"
    UNKNOWN: "x$NOBODY_DEFINES_THIS-y"
    DOLLAR: "$$FLAGS"
    LITERAL:
      value: "$FLAGS"
      expand: false
    SEES_LITERAL: "[$LITERAL]"
  script:
    - echo "<<"
    - echo "$ARGS"
    - echo "$OUT"
    - echo "$FROM_PROJECT"
    - echo "$UNKNOWN"
    - echo "$DOLLAR"
    - echo "$LITERAL"
    - echo "$SEES_LITERAL"
    - echo ">>"
`
    const { project, root } = await ciProject(server, 'nested', yaml)
    expectStatus(await root.post(`/projects/${project.id}/variables`, { key: 'PROJECT_ONE', value: '$FLAGS+$JOB_PART' }), 201)
    const p = await runPipeline(root, project.id)
    expect(await printed(p.id, 'show')).toEqual(['-al', '/srv/global-job/out', 'p=-al+global-job', 'x-y', '$FLAGS', '$FLAGS', '[$FLAGS]'])
  })

  it('lets a higher definition extend the one below it, keeps raw values as written, uses the winning value and ends a ring', async () => {
    const yaml = `variables:
  EXTENDED: base
show:
  variables:
    WINNER: yaml
    SEES_WINNER: "w=$WINNER"
    CYCLE_A: "a$CYCLE_B"
  script:
    - echo "<<"
    - echo "$EXTENDED"
    - echo "$RAW_ONE"
    - echo "$SEES_RAW"
    - echo "$SEES_WINNER"
    - echo "$PROJECT_SEES_WINNER"
    - echo "$CYCLE_A $CYCLE_B"
    - echo ">>"
`
    const { project, root } = await ciProject(server, 'precedence-refs', yaml)
    const add = async (body: Record<string, unknown>) => expectStatus(await root.post(`/projects/${project.id}/variables`, body), 201)
    await add({ key: 'EXTENDED', value: '$EXTENDED-project' })
    await add({ key: 'RAW_ONE', value: 'raw-$WINNER', raw: true })
    await add({ key: 'SEES_RAW', value: '<$RAW_ONE>' })
    await add({ key: 'PROJECT_SEES_WINNER', value: 'p=$WINNER' })
    await add({ key: 'CYCLE_B', value: 'b$CYCLE_A' })
    const p = await runPipeline(root, project.id, 'master', [{ key: 'WINNER', value: 'pipeline' }])
    const lines = await printed(p.id, 'show')
    expect(lines.slice(0, 5)).toEqual(['base-project', 'raw-$WINNER', '<raw-$WINNER>', 'w=pipeline', 'p=pipeline'])
    // A ring through a project variable is seen only when the job starts: it still gets values, not a hang.
    expect(lines[5]).toMatch(/^ab? ba?$/)
  })
})

describe('variables the runner defines', () => {
  it('expands $CI_PROJECT_DIR and ${CI_BUILDS_DIR} in YAML variables to where the runner really runs the job, keeps raw values and $$ literal, and masks a masked value inside another', async () => {
    const yaml = `variables:
  PIP_CACHE_DIR: "$CI_PROJECT_DIR/.cache/pip"
  TF_ROOT: \${CI_PROJECT_DIR}
show:
  variables:
    JOBS_HOME: "\${CI_BUILDS_DIR}"
    PIP_CACHE_DIR_PARENT: "$PIP_CACHE_DIR/.."
    ESCAPED: "$$CI_PROJECT_DIR/x"
    LITERAL:
      value: "$CI_PROJECT_DIR/literal"
      expand: false
    LOGIN: "user:\${SECRET_PART}@$CI_SERVER_HOST"
  script:
    - mkdir -p "$PIP_CACHE_DIR"
    - test -d "$PIP_CACHE_DIR_PARENT" && test -d "$TF_ROOT/.git" && test -d "$JOBS_HOME" && test "$TF_ROOT" = "$PWD"
    - test "$LOGIN" = "user:s3cr3t-Part-42@$CI_SERVER_HOST"
    - printf '%s\\n' "<<" "$CI_PROJECT_DIR" "$CI_BUILDS_DIR" "$PIP_CACHE_DIR" "$JOBS_HOME" "$ESCAPED" "$LITERAL" "$RAW_DIR" "$LOGIN" ">>"
`
    const { project, root } = await ciProject(server, 'runner-dirs', yaml)
    const add = async (body: Record<string, unknown>) => expectStatus(await root.post(`/projects/${project.id}/variables`, body), 201)
    await add({ key: 'RAW_DIR', value: '$CI_PROJECT_DIR/raw', raw: true })
    await add({ key: 'SECRET_PART', value: 's3cr3t-Part-42', masked: true })
    const p = await runPipeline(root, project.id)
    const [dir, builds, ...rest] = await printed(p.id, 'show')
    // The runner's directories on the host (the sandbox binds them at the same paths), not the server's builds/<id>.
    const job = jobNamed(server, p.id, 'show')
    expect(dir.startsWith(`${server.app.layout.builds}/`) && dir.endsWith(`/${job.id}`) && dir.startsWith(`${builds}/`)).toBe(true)
    expect(dir).not.toBe(join(server.app.layout.builds, String(job.id)))
    expect(rest).toEqual([`${dir}/.cache/pip`, builds, '$CI_PROJECT_DIR/x', '$CI_PROJECT_DIR/literal', '$CI_PROJECT_DIR/raw', `user:[MASKED]@${new URL(server.url).hostname}`])
  })
})

describe('artifact paths', () => {
  it('expands variables in paths and exclude with the job\'s variables, and takes paths under CI_PROJECT_DIR relative to it', async () => {
    const yaml = `build:
  variables:
    OUT_DIR: out
  script:
    - mkdir -p out/keep out/skip single
    - echo kept > out/keep/a.txt
    - echo skipped > out/skip/b.txt
    - echo one > single/one.txt
  artifacts:
    paths:
      - $CI_PROJECT_DIR/\${OUT_DIR}/
      - \${CI_PROJECT_DIR}/single/one.txt
    exclude:
      - $OUT_DIR/skip/**
`
    const { project, root } = await ciProject(server, 'artifact-paths', yaml)
    const p = await runPipeline(root, project.id)
    const done = await waitForFinished(server, p.id, 60_000)
    const job = jobNamed(server, p.id, 'build')
    const trace = (await readTrace(server.app.layout, job.id)).toString('utf8')
    expect(done.status, trace).toBe('success')
    expect(trace).toContain('Found 4 matching artifact files and directories')
    const file = async (path: string) => {
      const res = await root.get(`/projects/${project.id}/jobs/${job.id}/artifacts/${path}`)
      return [res.status, res.text]
    }
    expect([await file('out/keep/a.txt'), await file('single/one.txt'), (await file('out/skip/b.txt'))[0]])
      .toEqual([[200, 'kept\n'], [200, 'one\n'], 404])
  })
})
