// bubblewrap's arguments for a job: secret directories covered outermost first, only those that exist and are not
// under the sandbox's own /tmp (bwrap cannot make mount points on the read-only system), exposed ones shown
// read-only after them, then the job's directories. System directories stand in, so the test holds wherever it runs.
import { expect, it } from 'vitest'
import { sandboxArgs } from '../../src/runner/sandbox.js'

it('covers each existing secret directory once, outermost, shows exposed ones read-only, and binds the job directories after them', () => {
  const args = sandboxArgs({
    workDir: '/srv/builds/7', jobFilesDir: '/srv/builds/7.tmp', home: '/tmp/home',
    hide: ['/usr/share', '/usr', '/etc/', '/no/such/dir', '/tmp/collab-test-x', '/usr/share/doc'],
    expose: ['/usr/lib', '/no/such/dir'],
  })
  expect(args.join(' ')).toBe([
    '--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --dir /tmp/home',
    '--tmpfs /usr --tmpfs /etc',
    '--ro-bind /usr/lib /usr/lib',
    '--bind /srv/builds/7 /srv/builds/7 --ro-bind /srv/builds/7.tmp /srv/builds/7.tmp',
    '--unshare-all --share-net --die-with-parent --new-session --hostname collab-job --chdir /srv/builds/7',
  ].join(' '))
})
