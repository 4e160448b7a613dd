// python-gitlab 3.12 (a real client) administering users and groups: every endpoint of this slice it has a method for.
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { hasPythonGitlab } from '../../helpers/python-gitlab.js'
import { adminFixture } from './fixture.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab administering users and groups', () => {
  const f = adminFixture()

  it('creates, changes, blocks, keys, statuses, notifies, transfers, badges and deletes', async () => {
    const script = new URL('./python-gitlab-admin.py', import.meta.url).pathname
    const { stdout } = await execa('/usr/bin/python3', [script, f.server.url, f.server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    expect(JSON.parse(stdout)).toEqual({
      created: ['py', true],
      saved: 'snake',
      states: [true, 'blocked', true, true, true, true, 'deactivated', true],
      keys: ['k'],
      emails: ['py@elsewhere.example'],
      gpg: 0,
      status: 'busy coding',
      notifications: 'watch',
      subgroups: ['py-top/py-sub'],
      group_notifications: 'disabled',
      transferred: 'py-other/py-sub',
      badge: ['project', 'https://ci.example/py-top/py-badged'],
      render: true,
      badges: ['group', 'project'],
      group_deleted: ['py-other', 'py-other/py-sub'],
      user_deleted: [],
    })
  })
})
