// collab pipeline lint against a real server: a valid file, an invalid one (exit 1, each error on its own line), stdin,
// --json unchanged, and a missing file as a usage error.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectStatus } from '../../helpers/api.js'
import { ok } from '../cli.js'
import { useCiCli } from './fixture.js'

const f = useCiCli()
const GOOD = 'build:\n  script: echo hi\n'
const BAD = 'build:\n  stage: nope\n  script: echo hi\n'

describe('collab pipeline lint', () => {
  it('checks .gitlab-ci.yml of the working directory by default, and exits 0 when it is valid', async () => {
    writeFileSync(join(f.c.configDir, '.gitlab-ci.yml'), GOOD)
    expect(await f.c.run(['ci', 'lint', ...f.p])).toEqual(ok('valid\ttrue\n'))
  })

  it('prints each error and exits 1 when it is not', async () => {
    const result = await f.c.run(['pipeline', 'lint', '-', ...f.p], { input: BAD })
    const body = expectStatus(await f.w.owner.api.post(`/projects/${f.w.project.id}/ci/lint`, { content: BAD }), 200).body
    expect(body.valid).toBe(false)
    expect(result).toEqual({ stdout: `valid\tfalse\n${body.errors.map((e: string) => `error\t${e}\n`).join('')}`, stderr: '', exitCode: 1 })
  })

  it("prints the API's JSON unchanged with --json", async () => {
    writeFileSync(join(f.c.configDir, 'ci.yml'), GOOD)
    const body = expectStatus(await f.w.owner.api.post(`/projects/${f.w.project.id}/ci/lint`, { content: GOOD }), 200).text
    expect(await f.c.run(['ci', 'lint', 'ci.yml', '--json', ...f.p])).toEqual(ok(`${body}\n`))
  })

  it('names a file it cannot read as a usage error', async () => {
    expect(await f.c.run(['ci', 'lint', 'missing.yml', ...f.p])).toEqual({ stdout: '', stderr: "error: file: cannot read 'missing.yml': no such file\n", exitCode: 2 })
  })
})
