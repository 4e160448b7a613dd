// A CI world for the CLI tests: a server (fixed clock), the jobs fixture's project and roles, and a CLI logged in as its owner.
import { afterEach, beforeEach } from 'vitest'
import { saveHostToken } from '../../../src/cli/config.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'
import { ciWorld, type CiWorld } from '../../server/ci/jobs/fixture.js'
import { cli, type Cli } from '../cli.js'

export interface CiCliFixture {
  server: TestServer
  w: CiWorld
  /** The CLI, logged in as the project's owner. */
  c: Cli
  /** `-p owner/builds`: the project every command names. */
  p: string[]
}

export async function cliAs(server: TestServer, token: string, username: string): Promise<Cli> {
  const c = cli()
  await saveHostToken(c.configDir, server.url, token, username)
  return c
}

/** Registers hooks giving each test a fresh server and CI world, and the owner's CLI. */
export function useCiCli(): CiCliFixture {
  const f = {} as CiCliFixture
  beforeEach(async () => {
    f.server = await startTestServer({ clock: fixedClock('2024-01-02T03:04:05.000Z') })
    f.w = await ciWorld(f.server)
    f.c = await cliAs(f.server, f.w.owner.token, 'owner')
    f.p = ['-p', f.w.project.path_with_namespace]
  })
  afterEach(async () => {
    f.c.cleanup()
    await f.server.close()
  })
  return f
}
