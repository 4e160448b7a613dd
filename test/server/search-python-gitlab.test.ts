// python-gitlab 3.12 (a real client) over this slice: search at each level, broadcast messages, markdown, templates.
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasPythonGitlab } from '../helpers/python-gitlab.js'
import { fixedClock, startTestServer, type TestServer } from '../helpers/server.js'

const SCRIPT = `
import json, sys
import gitlab
gl = gitlab.Gitlab(sys.argv[1], private_token=sys.argv[2])
p = gl.projects.create({'name': 'pydemo'})
p.files.create({'file_path': 'a.txt', 'branch': 'main', 'content': 'one\\nhello needle\\n', 'commit_message': 'needle commit'})
p.issues.create({'title': 'needle issue'})
out = {}
out['projects'] = [x['path_with_namespace'] for x in gl.search('projects', 'pydemo')]
out['issues'] = [x['title'] for x in p.search('issues', 'needle')]
out['blobs'] = [[x['path'], x['startline'], x['data']] for x in p.search('blobs', 'needle')]
out['commits'] = [x['title'] for x in p.search('commits', 'needle')]
try:
    gl.search('nope', 'x')
except gitlab.exceptions.GitlabSearchError as e:
    out['bad_scope'] = [e.response_code, e.error_message]
msg = gl.broadcastmessages.create({'message': 'hello'})
msg.font = '#444444'
msg.save()
out['broadcast'] = [[m.message, m.font, m.active] for m in gl.broadcastmessages.list()]
msg.delete()
out['after_delete'] = len(gl.broadcastmessages.list())
out['markdown'] = gl.markdown('*hi* #1', gfm=True, project='root/pydemo')
out['gitignore'] = gl.gitignores.get('Node').name
out['license'] = gl.licenses.get('mit', project='py', fullname='Py Thon').content.splitlines()[2]
out['ci'] = [t.key for t in gl.gitlabciymls.list(get_all=True)]
out['dockerfile'] = gl.dockerfiles.get('Node').content.splitlines()[0]
print(json.dumps(out))
`

describe.skipIf(!hasPythonGitlab)('python-gitlab over search, broadcast messages, markdown and templates', () => {
  let server: TestServer
  beforeAll(async () => { server = await startTestServer({ clock: fixedClock('2030-01-01T00:00:00Z') }) })
  afterAll(() => server.close())

  it('answers every call as the client expects', async () => {
    const { stdout } = await execa('/usr/bin/python3', ['-c', SCRIPT, server.url, server.rootToken], { env: { PYTHONWARNINGS: 'error::UserWarning' } })
    const out = JSON.parse(stdout)
    // GitLab has more than 20 CI/CD templates: the list pages, and get_all reads every page.
    expect(out.ci).toHaveLength(25)
    expect(out.ci).toEqual(expect.arrayContaining(['Bash', 'Go', 'Nodejs', 'Python', 'Ruby', 'Rust', 'Maven', 'Gradle', 'PHP', 'dotNET-Core', 'Docker', 'Pages/HTML', 'Terraform']))
    expect({ ...out, ci: undefined }).toEqual({
      projects: ['root/pydemo'],
      issues: ['needle issue'],
      blobs: [['a.txt', 1, 'one\nhello needle\n']],
      commits: ['needle commit'],
      bad_scope: [400, 'scope does not have a valid value'],
      broadcast: [['hello', '#444444', true]],
      after_delete: 0,
      markdown: `<p><em>hi</em> <a href="${server.url}/root/pydemo/-/issues/1" class="gfm-reference">#1</a></p>\n`,
      gitignore: 'Node',
      license: 'Copyright (c) 2030 Py Thon',
      ci: undefined,
      dockerfile: 'FROM node:20-alpine',
    })
  })
})
