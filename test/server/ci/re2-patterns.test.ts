// Users' regular expressions run on RE2, as GitLab's do: patterns that a backtracking engine takes for ever on a
// chosen text (`/^(a+)+$/` against 'aaaa…ab') answer correctly, RE2's syntax is read, and what RE2 cannot run is
// refused with GitLab's lint wording. Through lint, pipeline creation, branch search and coverage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extractCoverage } from '../../../src/server/ci/lifecycle-finish.js'
import { expectStatus, type Api } from '../../helpers/api.js'
import { ciProject, jobStates, runPipeline } from '../../helpers/ci.js'
import { startTestServer, type TestServer } from '../../helpers/server.js'

const EVIL = `${'a'.repeat(40)}b`

let server: TestServer
let root: Api
let projectId: number

// The first alternative backtracks without end on EVIL; the match lies in the second.
const RULES = `
hit:
  script: x
  rules:
    - if: $MSG =~ /^(a+)+$|b$/
miss:
  script: x
  rules:
    - if: $MSG =~ /^(a+)+$/
unmatched:
  script: x
  rules:
    - if: $MSG !~ /^(a+)+$/
by-ref:
  script: x
  only: ['/^(a+)+$|b$/']
`

beforeAll(async () => {
  server = await startTestServer()
  const made = await ciProject(server, 're2', RULES)
  root = made.root
  projectId = made.project.id
  expectStatus(await root.post(`/projects/${projectId}/repository/branches`, { branch: EVIL, ref: 'master' }), 201)
})
afterAll(() => server.close())

const lint = (content: string, extra: Record<string, unknown> = {}) =>
  root.post(`/projects/${projectId}/ci/lint`, { content, ...extra }).then((r) => expectStatus(r, 200).body)

describe('rules:if and only:refs patterns', () => {
  it('answer correctly in a dry run, however the pattern would backtrack', async () => {
    const content = `variables:\n  MSG: ${EVIL}\n${RULES}`
    const body = await lint(content, { dry_run: true, ref: EVIL, include_jobs: true })
    expect(body.errors).toEqual([])
    expect(body.jobs.map((j: { name: string }) => j.name)).toEqual(['hit', 'unmatched', 'by-ref'])
  })

  it('answer correctly when a pipeline is created', async () => {
    const pipeline = await runPipeline(root, projectId, EVIL, [{ key: 'MSG', value: EVIL }])
    expect(jobStates(server, pipeline.id)).toEqual(['hit:pending', 'unmatched:pending', 'by-ref:pending'])
    const other = await runPipeline(root, projectId, 'master', [{ key: 'MSG', value: 'aaaa' }])
    expect(jobStates(server, other.id)).toEqual(['hit:pending', 'miss:pending'])
  })
})

describe('RE2 syntax', () => {
  it('reads inline flags and the /pattern/flags of GitLab', async () => {
    const content = `variables:\n  MSG: "a\\nB"\n${['/(?i)^A\\nB$/', '/^b$/im', '/^A.B$/is', '/^b$/']
      .map((re, i) => `j${i}:\n  script: x\n  rules:\n    - if: $MSG =~ ${re}\n`).join('')}`
    const body = await lint(content, { dry_run: true, include_jobs: true })
    expect(body.jobs.map((j: { name: string }) => j.name)).toEqual(['j0', 'j1', 'j2'])
  })

  it('refuses what RE2 cannot run in GitLab words', async () => {
    const job = (body: string) => `job:\n  script: x\n${body}`
    expect((await lint(job('  rules:\n    - if: $MSG =~ /(?=a)b/\n'))).errors).toEqual(['jobs:job:rules:rule if invalid expression syntax'])
    expect((await lint(job('  rules:\n    - if: $MSG =~ /(a)\\1/\n'))).errors).toEqual(['jobs:job:rules:rule if invalid expression syntax'])
    expect((await lint(job("  only: ['/(?<=x)y/']\n"))).errors)
      .toEqual(['jobs:job:only config should be an array of strings or regular expressions using re2 syntax'])
    expect((await lint(job("  except:\n    refs: ['/(a)\\1/']\n"))).errors)
      .toEqual(['jobs:job:except:refs config should be an array of strings or regular expressions using re2 syntax'])
    expect((await lint(job("  coverage: '/(?=x)\\d+/'\n"))).errors).toEqual(['jobs:job:coverage config must be a regular expression with re2 syntax'])
    // Eleven thousand instructions from 77 characters: RE2 refuses a program that large, and so do we, before compiling.
    expect((await lint(job(`  rules:\n    - if: $MSG =~ /${'a{1000}'.repeat(11)}/\n`))).errors).toEqual(['jobs:job:rules:rule if invalid expression syntax'])
    expect((await lint(job(`  only: ['/${'a{1000}'.repeat(11)}/']\n`))).errors)
      .toEqual(['jobs:job:only config should be an array of strings or regular expressions using re2 syntax'])
    expect((await lint(job("  coverage: '/(?i)coverage: (\\d+)%/'\n"))).valid).toBe(true)
  })
})

describe('branch search by regex', () => {
  it('reads RE2 syntax and answers a backtracking pattern correctly', async () => {
    const names = async (regex: string) => expectStatus(await root.get(`/projects/${projectId}/repository/branches`, { query: { regex } }), 200)
      .body.map((b: { name: string }) => b.name)
    expect(await names('(?i)^A+B$')).toEqual([EVIL])
    expect(await names('^(a+)+$|b$')).toEqual([EVIL])
    expect(await names('^(a+)+$')).toEqual([])
    const bad = await root.get(`/projects/${projectId}/repository/branches`, { query: { regex: '(?=a)' } })
    expect(bad.status).toBe(400)
  })
})

describe('coverage', () => {
  it('reads RE2 syntax from the trace', () => {
    expect(extractCoverage('line\nCOVERAGE: 87.5%\nend\n', '(?i)coverage: (\\d+(?:\\.\\d+)?)%')).toBe(87.5)
  })

  it('answers a backtracking pattern correctly', () => {
    expect(extractCoverage(`${EVIL}\nTotal 42%\n`, '^(a+)+$|Total (\\d+)%')).toBe(42)
    expect(extractCoverage(`${EVIL}\n`, '^(a+)+$')).toBeNull()
  })
})
