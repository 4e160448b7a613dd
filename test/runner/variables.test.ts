// The runner's pass over a job's variables (gitlab-runner's Variables.Expand over Go's os.Expand): its own directories
// before the server's variables, one expansion of every value that is not raw against the list as received, a file
// variable's reference giving its path, and a variable naming itself extending the shell's starting environment.
import { expect, it } from 'vitest'
import type { RunnerJobPayload } from '../../src/contract/entities/runner-job.js'
import { expandLikeRunner, prepareVariables } from '../../src/runner/executor/variables.js'

it('reads $$, ${NAME}, $NAME, the one-character shell names and bad syntax as os.Expand does', () => {
  const lookup = (name: string) => ({ A: 'a', 'B-C': 'bc' } as Record<string, string>)[name]
  const cases = ['$$A', '${A}x', '$Ax', '$A-', '$1$?$-', '${B-C}', '${}', '${A', '$ $/', 'end$', '${$}']
  expect(cases.map((c) => expandLikeRunner(c, lookup))).toEqual(['$A', 'ax', '', 'a-', '', 'bc', '', 'A', '$ $/', 'end$', '$'])
})

it('puts the runner\'s directories under the job\'s variables and expands each value once, raw ones left as written', () => {
  const variable = (key: string, value: string, over: Partial<RunnerJobPayload['variables'][number]> = {}) =>
    ({ key, value, public: true, masked: false, file: false, raw: false, ...over })
  const job = {
    runner_info: { timeout: 600 },
    variables: [
      variable('CACHE', '$CI_PROJECT_DIR/.cache'), variable('NESTED', '$CACHE/pip'), variable('ESCAPED', '$$CI_BUILDS_DIR'),
      variable('RAW', '$CI_PROJECT_DIR', { raw: true }), variable('CONFIG', 'dir=$CI_PROJECT_DIR', { file: true }),
      variable('SEES_FILE', '<$CONFIG>'), variable('PATH', '$PATH:/opt/bin'), variable('UNKNOWN', 'x${NOBODY}y'),
    ],
  } as unknown as RunnerJobPayload
  const side = { buildsDir: '/b', workDir: '/b/7', filesDir: '/b/7.tmp', runnerId: 'r1', base: { PATH: '/usr/bin' } }
  const values = Object.fromEntries(prepareVariables(job, side).map((v) => [v.key, v.value]))
  expect(values).toMatchObject({
    CI_BUILDS_DIR: '/b', CI_PROJECT_DIR: '/b/7', CI_JOB_TIMEOUT: '600', CI_RUNNER_DESCRIPTION: 'r1',
    // One pass, as gitlab-runner: NESTED gets CACHE as received (the server expands what it knows before sending).
    CACHE: '/b/7/.cache', NESTED: '$CI_PROJECT_DIR/.cache/pip', ESCAPED: '$CI_BUILDS_DIR', RAW: '$CI_PROJECT_DIR',
    CONFIG: 'dir=/b/7', SEES_FILE: '</b/7.tmp/CONFIG>', PATH: '/usr/bin:/opt/bin', UNKNOWN: 'xy',
  })
})
