// python-gitlab 3.12 (Debian's python3-gitlab) on the package registry: project.generic_packages.upload/download and
// project.packages.list/get/delete, with package_files, as its users script them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab, runPythonGitlab } from '../helpers/python-gitlab.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

describe.skipIf(!hasPythonGitlab)('python-gitlab on the package registry', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it('uploads, downloads, lists, reads and deletes generic packages', async () => {
    const bytes = [...Buffer.from('\x00binary\xffpayload', 'latin1')]
    expect(await runPythonGitlab('python-gitlab-packages.py', server)).toEqual({
      upload: ['201 Created', 'py_app', 'app.bin'],
      download: bytes,
      streamed: bytes.length,
      list: [['py_app', '0.1.0', 'generic'], ['py_app', '0.2.0', 'generic']],
      filtered: ['0.2.0'],
      get: ['py_app', '0.1.0', ['0.2.0']],
      files: [['app.bin', bytes.length, 64]],
      after_delete: ['0.2.0'],
      deleted_get: [404, '404 Not found'],
      deleted_download: [404, '404 Not found'],
    })
  })
})
