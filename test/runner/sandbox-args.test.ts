// bubblewrap's arguments for a job: secret directories covered outermost first, only those that exist and are not
// under the sandbox's own /tmp (bwrap cannot make mount points on the read-only system), then the job's directories.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { sandboxArgs } from '../../src/runner/sandbox.js'

// Outside /tmp on purpose: the repository's own test directory, removed afterwards.
const base = mkdtempSync(join(new URL('.', import.meta.url).pathname, '.sandbox-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

it('covers each existing secret directory once, outermost, shows exposed ones read-only, and binds the job directories after them', () => {
  const home = join(base, 'home')
  mkdirSync(join(home, '.config/collab'), { recursive: true })
  mkdirSync(join(home, 'collab'))
  const data = join(base, 'data')
  mkdirSync(data)
  const args = sandboxArgs({
    workDir: join(data, 'builds/7'), jobFilesDir: join(data, 'builds/7.tmp'), home: '/tmp/home',
    hide: [join(home, '.config/collab'), home, data, join(base, 'missing'), '/tmp/collab-test-x', data + '/'],
    expose: [join(home, 'collab'), join(base, 'missing')],
  })
  expect(args.join(' ')).toBe([
    '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --dir /tmp/home',
    `--tmpfs ${home} --tmpfs ${data}`,
    `--ro-bind ${home}/collab ${home}/collab`,
    `--bind ${data}/builds/7 ${data}/builds/7 --ro-bind ${data}/builds/7.tmp ${data}/builds/7.tmp`,
    `--unshare-all --share-net --die-with-parent --new-session --hostname collab-job --chdir ${data}/builds/7`,
  ].join(' '))
})
