// collab project …: the built CLI against a real server, piped, with exact output.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createGroup, createProject, createUser, expectStatus } from '../helpers/api.js'
import { until } from '../helpers/wait.js'
import { ok, useServerAndCli } from './cli.js'

const t = useServerAndCli()

/** `[a,b]` + `[c]` -> `[a,b,c]`, byte for byte: what `--all --json` must print. */
const joinPages = (texts: string[]) => `[${texts.map((text) => text.slice(1, -1)).filter(Boolean).join(',')}]\n`

describe('project list', () => {
  it('prints one tab-separated line per project, newest first, when piped', async () => {
    const demo = await createProject(t.root, { name: 'demo', description: 'First demo', visibility: 'public' })
    const other = await createProject(t.root, { name: 'other', visibility: 'private' })
    expect(await t.c.run(['project', 'list'])).toEqual(ok(`${other.id}\troot/other\tprivate\t\n${demo.id}\troot/demo\tpublic\tFirst demo\n`))
  })

  it('keeps each project on one line when the description has tabs and newlines', async () => {
    const p = await createProject(t.root, { name: 'demo', description: 'line one\n\tline two', visibility: 'private' })
    expect(await t.c.run(['project', 'list'])).toEqual(ok(`${p.id}\troot/demo\tprivate\tline one line two\n`))
  })

  it('prints the API body unchanged with --json', async () => {
    await createProject(t.root, { name: 'demo' })
    await createProject(t.root, { name: 'other' })
    const body = expectStatus(await t.root.get('/projects'), 200).text
    expect(await t.c.run(['project', 'list', '--json'])).toEqual(ok(`${body}\n`))
  })

  it('sends the filters as GET /projects parameters', async () => {
    await createProject(t.root, { name: 'demo', visibility: 'public' })
    const other = await createProject(t.root, { name: 'other', visibility: 'internal' })
    const body = expectStatus(await t.root.get('/projects', { query: { search: 'oth', visibility: 'internal', order_by: 'name', sort: 'asc' } }), 200).text
    expect(await t.c.run(['project', 'list', '--search', 'oth', '--visibility', 'internal', '--order-by', 'name', '--sort', 'asc', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'list', '--visibility', 'internal'])).toEqual(ok(`${other.id}\troot/other\tinternal\t\n`))
    expect(await t.c.run(['project', 'list', '--archived'])).toEqual(ok(''))
  })

  it('fetches one page by default and every page with --all', async () => {
    const [a, b, d] = [await createProject(t.root, { name: 'a' }), await createProject(t.root, { name: 'b' }), await createProject(t.root, { name: 'd' })]
    expect(await t.c.run(['project', 'list', '--per-page', '2'])).toEqual(ok(`${d.id}\troot/d\tprivate\t\n${b.id}\troot/b\tprivate\t\n`))
    expect(await t.c.run(['project', 'list', '--per-page', '2', '--all'])).toEqual(ok(`${d.id}\troot/d\tprivate\t\n${b.id}\troot/b\tprivate\t\n${a.id}\troot/a\tprivate\t\n`))
    const pages = [1, 2, 3].map((page) => t.root.get('/projects', { query: { per_page: 1, page } }))
    expect(await t.c.run(['project', 'list', '--per-page', '1', '--all', '--json'])).toEqual(ok(joinPages((await Promise.all(pages)).map((r) => r.text))))
  })
})

describe('project view', () => {
  it('prints the main fields as label<TAB>value lines', async () => {
    const p = await createProject(t.root, { name: 'demo', description: 'A demo', visibility: 'public' })
    expect(await t.c.run(['project', 'view', 'root/demo'])).toEqual(ok([
      `id\t${p.id}`, 'path\troot/demo', 'name\tdemo', 'description\tA demo', 'visibility\tpublic', `default_branch\t${p.default_branch ?? ''}`,
      'archived\tfalse', 'forked_from\t', 'stars\t0', 'forks\t0', 'created_at\t2024-01-02T03:04:05.000Z',
      `web_url\t${t.server.url}/root/demo`, `http_url\t${t.server.url}/root/demo.git`, `ssh_url\t${p.ssh_url_to_repo}`, '',
    ].join('\n')))
  })

  it('finds the project by id, path or URL, and prints the API body with --json', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    const body = expectStatus(await t.root.get(`/projects/${p.id}`), 200).text
    expect(await t.c.run(['project', 'view', String(p.id), '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'view', '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'view', `${t.server.url}/root/demo.git`, '--json'])).toEqual(ok(`${body}\n`))
  })

  it('takes the project from COLLAB_PROJECT, then from the git remote of the current directory', async () => {
    const p = await createProject(t.root, { name: 'demo' })
    const body = expectStatus(await t.root.get(`/projects/${p.id}`), 200).text
    expect(await t.c.run(['project', 'view', '--json'], { env: { COLLAB_PROJECT: 'root/demo' } })).toEqual(ok(`${body}\n`))

    const clone = join(t.c.configDir, 'clone')
    mkdirSync(join(clone, '.git'), { recursive: true })
    mkdirSync(join(clone, 'src', 'deep'), { recursive: true })
    writeFileSync(join(clone, '.git', 'config'), [
      '[core]', '\tbare = false',
      '[remote "upstream"]', '\turl = https://gitlab.example.com/someone/else.git',
      '[remote "origin"]', `\turl = ${t.server.url}/root/demo.git`, '\tfetch = +refs/heads/*:refs/remotes/origin/*', '',
    ].join('\n'))
    expect(await t.c.run(['project', 'view', '--json'], { cwd: join(clone, 'src', 'deep') })).toEqual(ok(`${body}\n`))
  })

  it('fails with exit 2 when no project is given or found', async () => {
    expect(await t.c.run(['project', 'view'])).toEqual({
      stdout: '',
      stderr: 'error: could not determine the project\nhint: pass -p/--project (an id or group/project), set COLLAB_PROJECT, or run inside a clone whose remote is on a configured host\n',
      exitCode: 2,
    })
  })

  it('fails with exit 1 and the API message for a missing project', async () => {
    expect(await t.c.run(['project', 'view', 'root/nope'])).toEqual({ stdout: '', stderr: 'error: 404 Project Not Found: root/nope\n', exitCode: 1 })
  })
})

describe('project create, edit, delete', () => {
  it('creates a project, prints its URL, and reports on stderr', async () => {
    expect(await t.c.run(['project', 'create', 'demo', '--description', 'From the CLI', '--visibility', 'internal'])).toEqual(ok(`${t.server.url}/root/demo\n`, 'Created project root/demo\n'))
    const p = expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body
    expect([p.name, p.description, p.visibility]).toEqual(['demo', 'From the CLI', 'internal'])
  })

  it('creates a project in a namespace given by path', async () => {
    const group = await createGroup(t.root, { name: 'Team', path: 'team' })
    expect(await t.c.run(['project', 'create', 'Tool', '--path', 'tool', '--namespace', 'team'])).toEqual(ok(`${t.server.url}/team/tool\n`, 'Created project team/tool\n'))
    expect(expectStatus(await t.root.get('/projects/team%2Ftool'), 200).body.namespace.id).toBe(group.id)
  })

  it('prints the created project as the API returned it with --json', async () => {
    const result = await t.c.run(['project', 'create', 'demo', '--json'])
    expect([result.exitCode, result.stderr]).toEqual([0, 'Created project root/demo\n'])
    expect(JSON.parse(result.stdout)).toEqual(expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body)
  })

  it('fails with exit 1 and the stringified validation message when the name is taken', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['project', 'create', 'demo'])).toEqual({
      stdout: '',
      stderr: 'error: name: has already been taken; path: has already been taken (HTTP 409)\n',
      exitCode: 1,
    })
  })

  it('edits only the settings given', async () => {
    await createProject(t.root, { name: 'demo', description: 'old', visibility: 'private' })
    expect(await t.c.run(['project', 'edit', 'root/demo', '--description', 'new', '--visibility', 'public', '--no-wiki', '--topics', 'cli,tools']))
      .toEqual(ok('', 'Updated project root/demo\n'))
    const p = expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body
    expect([p.description, p.visibility, p.wiki_enabled, p.issues_enabled, p.topics]).toEqual(['new', 'public', false, true, ['cli', 'tools']])
  })

  it('refuses an edit without settings (exit 2)', async () => {
    expect(await t.c.run(['project', 'edit', 'root/demo'])).toEqual({
      stdout: '',
      stderr: "error: nothing to change\nhint: pass at least one setting; see 'collab project edit --help'\n",
      exitCode: 2,
    })
  })

  it('deletes only with --yes when nobody can be asked', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['project', 'delete', 'root/demo'])).toEqual({ stdout: '', stderr: 'error: --yes is required when not running interactively\n', exitCode: 2 })
    expect((await t.root.get('/projects/root%2Fdemo')).status).toBe(200)
    expect(await t.c.run(['project', 'delete', 'root/demo', '--yes'])).toEqual(ok('', 'Deleted project root/demo\n'))
    expect((await t.root.get('/projects/root%2Fdemo')).status).toBe(404)
  })
})

describe('project fork, forks, star, archive, languages', () => {
  it('forks into a namespace and lists the forks', async () => {
    await createProject(t.root, { name: 'demo', description: 'Upstream' })
    await createGroup(t.root, { name: 'Team', path: 'team' })
    expect(await t.c.run(['project', 'fork', 'root/demo', '--namespace', 'team'])).toEqual(ok(`${t.server.url}/team/demo\n`, 'Forked root/demo to team/demo\n'))
    // The fork's repository is copied in the background: its import_status moves from started to finished, so the
    // answers compared below are taken once it has.
    const fork = await until('the fork to finish copying', async () => {
      const body = expectStatus(await t.root.get('/projects/team%2Fdemo'), 200).body
      return body.import_status === 'finished' ? body : null
    })
    expect(fork.forked_from_project.path_with_namespace).toBe('root/demo')
    expect(await t.c.run(['project', 'forks', 'root/demo'])).toEqual(ok(`${fork.id}\tteam/demo\t${fork.visibility}\tUpstream\n`))
    const body = expectStatus(await t.root.get('/projects/root%2Fdemo/forks'), 200).text
    expect(await t.c.run(['project', 'forks', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
  })

  it('stars and unstars, saying so when nothing changed (304)', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['project', 'star', 'root/demo'])).toEqual(ok('', 'Starred root/demo\n'))
    expect(await t.c.run(['project', 'star', 'root/demo'])).toEqual(ok('', 'Already starred root/demo\n'))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body.star_count).toBe(1)
    expect(await t.c.run(['project', 'unstar', 'root/demo'])).toEqual(ok('', 'Unstarred root/demo\n'))
    expect(await t.c.run(['project', 'unstar', 'root/demo'])).toEqual(ok('', 'Not starred root/demo\n'))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body.star_count).toBe(0)
  })

  it('archives and unarchives', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['project', 'archive', 'root/demo'])).toEqual(ok('', 'Archived root/demo\n'))
    expect(expectStatus(await t.root.get('/projects/root%2Fdemo'), 200).body.archived).toBe(true)
    const unarchived = await t.c.run(['project', 'unarchive', 'root/demo', '--json'])
    expect(unarchived.stderr).toBe('Unarchived root/demo\n')
    expect(JSON.parse(unarchived.stdout).archived).toBe(false)
  })

  it('prints language shares', async () => {
    const p = await createProject(t.root, { name: 'demo', initialize_with_readme: true })
    expectStatus(await t.root.post(`/projects/${p.id}/repository/commits`, {
      branch: p.default_branch, commit_message: 'code',
      actions: [{ action: 'create', file_path: 'main.ts', content: 'x'.repeat(300) }, { action: 'create', file_path: 'tool.py', content: 'y'.repeat(100) }],
    }), 201)
    expect(await t.c.run(['project', 'languages', 'root/demo'])).toEqual(ok('TypeScript\t75\nPython\t25\n'))
    expect(await t.c.run(['project', 'languages', 'root/demo', '--json'])).toEqual(ok('{"TypeScript":75,"Python":25}\n'))
  })
})

describe('project members', () => {
  it('adds, lists, edits and removes members by username', async () => {
    await createProject(t.root, { name: 'demo' })
    const alice = await createUser(t.server, 'alice')
    expect(await t.c.run(['project', 'members', 'add', 'alice', '-a', 'developer', '-p', 'root/demo'])).toEqual(ok('', 'Added alice to root/demo as developer\n'))
    expect(await t.c.run(['project', 'members', '-p', 'root/demo'])).toEqual(ok(`1\troot\tAdministrator\towner\t\n${alice.id}\talice\tUser alice\tdeveloper\t\n`))
    expect(await t.c.run(['project', 'members', 'edit', String(alice.id), '-a', '40', '--expires-at', '2030-01-31', '-p', 'root/demo']))
      .toEqual(ok('', 'alice is now maintainer in root/demo\n'))
    const body = expectStatus(await t.root.get('/projects/root%2Fdemo/members'), 200).text
    expect(await t.c.run(['project', 'members', 'list', '-p', 'root/demo', '--json'])).toEqual(ok(`${body}\n`))
    expect(await t.c.run(['project', 'members', 'list', '-p', 'root/demo'])).toEqual(ok(`1\troot\tAdministrator\towner\t\n${alice.id}\talice\tUser alice\tmaintainer\t2030-01-31\n`))
    expect(await t.c.run(['project', 'members', 'remove', 'alice', '-p', 'root/demo'])).toEqual(ok('', 'Removed alice from root/demo\n'))
    expect(await t.c.run(['project', 'members', '-p', 'root/demo'])).toEqual(ok('1\troot\tAdministrator\towner\t\n'))
  })

  it('fails with exit 1 for an unknown username', async () => {
    await createProject(t.root, { name: 'demo' })
    expect(await t.c.run(['project', 'members', 'add', 'bob', '-a', 'guest', '-p', 'root/demo'])).toEqual({ stdout: '', stderr: "error: no user named 'bob'\n", exitCode: 1 })
  })
})
