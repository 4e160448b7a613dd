// Release programs, unchanged, against collab serve (issue 23). semantic-release with @semantic-release/gitlab reads
// the commits, pushes the tag over smart HTTP, uploads its asset to the generic package registry, creates the release
// with a link to it, and comments on the merged merge request and the issue it closed, as it does on GitLab, run by
// hand and in a pipeline's job on collab's runner; gitbeaker's CLI and the gitlab gem's (Debian's ruby-gitlab) list
// those releases and the project's environments.
// The programs need Node >= 22: they live in test/e2e/release-programs (npm ci --prefix test/e2e/release-programs),
// run under that folder's Node from npm's node package.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProject, createUser, expectStatus, type TestUser } from '../helpers/api.js'
import { jobNamed, waitForFinished } from '../helpers/ci.js'
import { gitCli, urlWithCredentials, type GitCli } from '../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../helpers/server.js'

const PROGRAMS = new URL('./release-programs/node_modules/', import.meta.url).pathname
const NODE22 = join(PROGRAMS, 'node/bin/node')
const SEMANTIC_RELEASE = join(PROGRAMS, 'semantic-release/bin/semantic-release.js')
const GITBEAKER = join(PROGRAMS, '@gitbeaker/cli/dist/index.mjs')
const installed = existsSync(NODE22) && existsSync(SEMANTIC_RELEASE)
// Debian names the gem's `gitlab` command ruby-gitlab; .ci/run installs it as root.
const RUBY_GITLAB = '/usr/bin/ruby-gitlab'

/** Each test runs programs (node start-up, git, a pipeline): a budget for a loaded two-core machine. */
const PROGRAM_TIMEOUT = 90_000

/** Runs a program with only the environment given; fails with its output when it exits non-zero. */
async function program(cmd: string, args: string[], env: Record<string, string>, cwd?: string) {
  const r = await execa(cmd, args, { cwd, env, extendEnv: false, reject: false, all: true })
  if (r.exitCode !== 0) throw new Error(`${[cmd, ...args].join(' ')} exited ${r.exitCode}:\n${r.all}`)
  return r
}

const RELEASERC = {
  branches: ['main'],
  plugins: [
    '@semantic-release/commit-analyzer',
    '@semantic-release/release-notes-generator',
    ['@semantic-release/gitlab', { assets: [
      { path: 'dist/app.txt', label: 'App', target: 'generic_package' },
      // Without a target the plugin uploads through POST /projects/:id/uploads and links the upload's full_path.
      { path: 'dist/checksums.txt', label: 'Checksums', type: 'other' },
    ] }],
  ],
}

// The tests build on each other, in order: each release follows the one before, the CLIs list the first two.
describe.skipIf(!installed)('release programs on collab', () => {
  let server: TestServer
  let git: GitCli
  let alice: TestUser
  let project: any
  let dir: string

  beforeAll(async () => {
    server = await startTestServer({ runner: { concurrency: 1 } })
    git = gitCli()
    alice = await createUser(server, 'alice')
    project = await createProject(alice.api, { name: 'app', visibility: 'public' })
    dir = join(git.root, 'app')
    mkdirSync(dir)
    await git.run(dir, 'init', '-q', '-b', 'main')
    await git.commit(dir, 'chore: set up releases', {
      'README.md': '# app\n', '.gitignore': 'dist/\n', '.releaserc.json': JSON.stringify(RELEASERC, null, 2),
    })
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/alice/app.git', 'alice', alice.token), 'main')
    // As in a clone: origin without credentials; semantic-release adds GITLAB_TOKEN to it for its pushes.
    await git.run(dir, 'remote', 'add', 'origin', `${server.url}/alice/app.git`)
    await git.run(dir, 'fetch', '-q', 'origin')
    await git.run(dir, 'branch', '-q', '--set-upstream-to', 'origin/main')
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    git?.cleanup()
  })

  /** semantic-release's bin under Node 22 in the work tree; its log. */
  const semanticRelease = async (args: string[], env: Record<string, string>) =>
    (await program(NODE22, [SEMANTIC_RELEASE, ...args], { ...git.env, ...env }, dir)).all

  async function build(version: string) {
    mkdirSync(join(dir, 'dist'), { recursive: true })
    const bytes = Buffer.from(`app ${version}\n\u0000\u00ff binary tail\n`, 'latin1')
    writeFileSync(join(dir, 'dist/app.txt'), bytes)
    writeFileSync(join(dir, 'dist/checksums.txt'), `sha256 ${version}\n`)
    return bytes
  }

  it('releases v1.0.0 from a feat commit: tag, release notes, assets in the generic package registry and the uploads', async () => {
    const feat = await git.commit(dir, 'feat: greet people by name', { 'greet.sh': 'echo "hello $1"\n' })
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/alice/app.git', 'alice', alice.token), 'main')
    const bytes = await build('1.0.0')

    const out = await semanticRelease(['--no-ci'], { GITLAB_URL: server.url, GITLAB_TOKEN: alice.token })
    expect(out).toContain('Published release 1.0.0 on default channel')

    const tag = expectStatus(await alice.api.get(`/projects/${project.id}/repository/tags/v1.0.0`), 200).body
    expect(tag.commit.id).toBe(feat)
    const release = expectStatus(await alice.api.get(`/projects/${project.id}/releases/v1.0.0`), 200).body
    expect(release.tag_name).toBe('v1.0.0')
    expect(release.description).toContain('greet people by name')
    expect(release.description).toContain('### Features')
    expect(release.commit.id).toBe(feat)
    // The plugin links the package file's API URL and the upload's full_path, both outside the project's web URL:
    // external, as GitLab shows them.
    const links = Object.fromEntries(release.assets.links.map((l: any) => [l.name, l]))
    expect(Object.keys(links).sort()).toEqual(['App', 'Checksums'])
    expect(links.App).toMatchObject({
      link_type: 'package', external: true, url: `${server.url}/api/v4/projects/alice%2Fapp/packages/generic/release/1.0.0/App`,
    })
    expect(links.Checksums).toMatchObject({ link_type: 'other', external: true, url: expect.stringMatching(/\/uploads\/[0-9a-f]{32}\/checksums\.txt$/) })
    const packages = expectStatus(await alice.api.get(`/projects/${project.id}/packages`), 200).body
    expect(packages.map((p: any) => [p.name, p.version, p.package_type])).toEqual([['release', '1.0.0', 'generic']])
    const download = await fetch(links.App.url, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(download.status).toBe(200)
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes)
    // A public project's uploads open for anyone.
    const checksums = await fetch(links.Checksums.url)
    expect([checksums.status, await checksums.text()]).toEqual([200, 'sha256 1.0.0\n'])
  }, PROGRAM_TIMEOUT)

  it('releases v1.0.1 from a merged fix in a GitLab job, and comments on the merge request and the issue it closed', async () => {
    const issue = expectStatus(await alice.api.post(`/projects/${project.id}/issues`, { title: 'Greeting an empty name prints nothing' }), 201).body
    await git.run(dir, 'checkout', '-q', '-b', 'empty-name')
    const fix = await git.commit(dir, `fix: greet someone when no name is given\n\nCloses #${issue.iid}`, { 'greet.sh': 'echo "hello ${1:-there}"\n' })
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/alice/app.git', 'alice', alice.token), 'empty-name')
    const mr = expectStatus(await alice.api.post(`/projects/${project.id}/merge_requests`, {
      source_branch: 'empty-name', target_branch: 'main', title: 'Greet someone when no name is given',
    }), 201).body
    await server.app.tasks.idle()
    const merged = expectStatus(await alice.api.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`), 200).body
    await server.app.tasks.idle()
    await git.run(dir, 'checkout', '-q', 'main')
    await git.run(dir, 'pull', '-q', '--ff-only')
    expect(await git.run(dir, 'rev-parse', 'HEAD')).toBe(merged.merge_commit_sha)
    const bytes = await build('1.0.1')

    // What a GitLab job's environment tells semantic-release (env-ci's gitlab service): the project by id, the API URL.
    const out = await semanticRelease([], {
      CI: 'true', GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'main', CI_COMMIT_SHA: merged.merge_commit_sha,
      CI_PROJECT_ID: String(project.id), CI_PROJECT_PATH: 'alice/app', CI_PROJECT_URL: `${server.url}/alice/app`,
      CI_API_V4_URL: `${server.url}/api/v4`, CI_PROJECT_DIR: dir, GL_TOKEN: alice.token,
    })
    expect(out).toContain('Published release 1.0.1 on default channel')

    expect(expectStatus(await alice.api.get(`/projects/${project.id}/repository/tags/v1.0.1`), 200).body.commit.id).toBe(merged.merge_commit_sha)
    const release = expectStatus(await alice.api.get(`/projects/${project.id}/releases/v1.0.1`), 200).body
    expect(release.description).toContain('### Bug Fixes')
    expect(release.description).toContain('greet someone when no name is given')
    expect(release.description).toContain(fix.slice(0, 7))
    const latest = expectStatus(await alice.api.get(`/projects/${project.id}/releases`), 200).body
    expect(latest.map((r: any) => r.tag_name)).toEqual(['v1.0.1', 'v1.0.0'])
    const app = release.assets.links.find((l: any) => l.name === 'App')
    const download = await fetch(app.url, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes)

    // The success step finds the merged merge request of the released commits and the issue it closed.
    const note = (kind: string, iid: number) => alice.api.get(`/projects/${project.id}/${kind}/${iid}/notes`, { query: { sort: 'asc' } })
    const mrNotes = expectStatus(await note('merge_requests', mr.iid), 200).body.filter((n: any) => !n.system)
    const issueNotes = expectStatus(await note('issues', issue.iid), 200).body.filter((n: any) => !n.system)
    const releaseUrl = `${server.url}/alice/app/-/releases/v1.0.1`
    expect(mrNotes.map((n: any) => n.body)).toEqual([expect.stringContaining(`This MR is included in version 1.0.1 :tada:\n\nThe release is available on [GitLab release](${releaseUrl}).`)])
    expect(issueNotes.map((n: any) => n.body)).toEqual([expect.stringContaining('This issue has been resolved in version 1.0.1')])
    expect((await fetch(releaseUrl)).status).toBe(200)
  }, PROGRAM_TIMEOUT)

  it('gitbeaker\'s CLI lists the releases semantic-release made and the environments', async () => {
    const gitbeaker = async (...args: string[]) => JSON.parse((await program(NODE22, [GITBEAKER, ...args], {
      PATH: git.env.PATH, HOME: git.env.HOME, GITLAB_HOST: server.url, GITLAB_TOKEN: alice.token,
    })).stdout)
    const created = await gitbeaker('environments', 'create', 'alice/app', 'production', '--external-url=https://app.example.com', '--tier=production')
    expect(created).toMatchObject({ name: 'production', slug: 'production', external_url: 'https://app.example.com', tier: 'production', state: 'available' })
    expect(await gitbeaker('environments', 'create', 'alice/app', 'review/empty-name')).toMatchObject({ name: 'review/empty-name', tier: 'development' })

    const environments = await gitbeaker('environments', 'all', 'alice/app')
    expect(environments.map((e: any) => [e.name, e.tier, e.external_url])).toEqual([
      ['production', 'production', 'https://app.example.com'], ['review/empty-name', 'development', null],
    ])

    const releases = await gitbeaker('project-releases', 'all', 'alice/app')
    expect(releases.map((r: any) => [r.tag_name, r.assets.links.map((l: any) => l.name).sort()])).toEqual([
      ['v1.0.1', ['App', 'Checksums']], ['v1.0.0', ['App', 'Checksums']],
    ])
    const first = await gitbeaker('project-releases', 'show', 'alice/app', 'v1.0.0')
    expect(first).toMatchObject({ tag_name: 'v1.0.0', name: 'v1.0.0', _links: { self: `${server.url}/alice/app/-/releases/v1.0.0` } })
    expect(first.description).toContain('greet people by name')
  }, PROGRAM_TIMEOUT)

  it.skipIf(!existsSync(RUBY_GITLAB))('the gitlab gem\'s CLI lists the releases and the environments', async () => {
    const gem = async (...args: string[]) => JSON.parse((await program(RUBY_GITLAB, [...args, '--json'], {
      PATH: git.env.PATH, HOME: git.env.HOME, GITLAB_API_ENDPOINT: `${server.url}/api/v4`, GITLAB_API_PRIVATE_TOKEN: alice.token,
    })).stdout)
    // The gem's --json prints the top-level fields it was asked for (a nested object reads "Hash").
    const releases = await gem('project_releases', 'alice/app', '--only=tag_name,name,upcoming_release')
    expect(releases.result).toEqual([
      { name: 'v1.0.1', tag_name: 'v1.0.1', upcoming_release: false }, { name: 'v1.0.0', tag_name: 'v1.0.0', upcoming_release: false },
    ])
    const one = await gem('project_release', 'alice/app', 'v1.0.1', '--only=tag_name,description,assets')
    expect(one.result).toEqual({ tag_name: 'v1.0.1', description: expect.stringContaining('### Bug Fixes'), assets: 'Hash' })
    const environments = await gem('environments', 'alice/app', '--only=name,tier,external_url')
    expect(environments.result).toEqual([
      { name: 'production', tier: 'production', external_url: 'https://app.example.com' },
      { name: 'review/empty-name', tier: 'development', external_url: null },
    ])
  }, PROGRAM_TIMEOUT)

  it('releases v1.1.0 from a release job of a pipeline, the API called with the job token: the job\'s variables tell it everything', async () => {
    const variables = { GITLAB_TOKEN: alice.token, RELEASE_NODE: NODE22, SEMANTIC_RELEASE }
    for (const [key, value] of Object.entries(variables)) {
      expectStatus(await alice.api.post(`/projects/${project.id}/variables`, { key, value, masked: key === 'GITLAB_TOKEN' }), 201)
    }
    const ci = [
      'release:',
      '  rules:',
      '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH',
      '  script:',
      '    - mkdir -p dist && echo "app $CI_COMMIT_SHORT_SHA" > dist/app.txt && echo sums > dist/checksums.txt',
      '    - \'"$RELEASE_NODE" "$SEMANTIC_RELEASE"\'',
    ].join('\n')
    // With useJobToken the plugin calls the API with the job's CI_JOB_TOKEN (JOB-TOKEN); git pushes with GITLAB_TOKEN.
    const releaserc = { ...RELEASERC, plugins: [...RELEASERC.plugins.slice(0, 2), ['@semantic-release/gitlab', {
      useJobToken: true, assets: [{ path: 'dist/app.txt', label: 'App', target: 'generic_package' }],
    }]] }
    const sha = await git.commit(dir, 'feat: release from a pipeline', { '.gitlab-ci.yml': ci, '.releaserc.json': JSON.stringify(releaserc, null, 2) })
    await git.run(dir, 'push', '-q', urlWithCredentials(server.url, '/alice/app.git', 'alice', alice.token), 'main')
    await server.app.tasks.idle()
    const pipelines = expectStatus(await alice.api.get(`/projects/${project.id}/pipelines`, { query: { sha } }), 200).body
    expect(pipelines.map((p: any) => p.ref)).toEqual(['main'])
    const finished = await waitForFinished(server, pipelines[0].id, 60_000)
    const job = jobNamed(server, pipelines[0].id, 'release')
    const trace = expectStatus(await alice.api.get(`/projects/${project.id}/jobs/${job.id}/trace`), 200).text
    expect(finished.status, trace).toBe('success')
    expect(trace).toContain('Using Job Token for authentication.')
    expect(trace).toContain('Published release 1.1.0 on default channel')
    expect(trace).not.toContain(alice.token)

    expect(expectStatus(await alice.api.get(`/projects/${project.id}/repository/tags/v1.1.0`), 200).body.commit.id).toBe(sha)
    const release = expectStatus(await alice.api.get(`/projects/${project.id}/releases/v1.1.0`), 200).body
    expect(release.description).toContain('release from a pipeline')
    expect(release.author.username).toBe('alice')
    expect(release.assets.links.map((l: any) => l.name)).toEqual(['App'])
    const download = await fetch(release.assets.links[0].url, { headers: { 'PRIVATE-TOKEN': alice.token } })
    expect(await download.text()).toBe(`app ${sha.slice(0, 8)}\n`)
  }, PROGRAM_TIMEOUT)
})
