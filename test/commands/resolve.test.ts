// Host, token and project resolution, git remote parsing: pure functions over env, config and .git/config.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { normalizeHost, type ConfigFile } from '../../src/cli/config.js'
import { findGitConfig, matchRemotes, parseRemotes, parseRemoteUrl, projectFromGitRemote, projectOnHost } from '../../src/cli/git-remote.js'
import { defaultHost, explicitHost, parseProjectArg, projectFromEnv, resolveToken } from '../../src/cli/resolve.js'

const config = (c: Partial<ConfigFile> = {}): ConfigFile => ({ hosts: {}, settings: {}, ...c })

describe('normalizeHost', () => {
  it.each([
    ['gitlab.example.com', 'https://gitlab.example.com'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['https://example.com/gitlab/api/v4', 'https://example.com/gitlab'],
    ['HTTPS://Example.COM', 'https://example.com'],
  ])('%s -> %s', (input, host) => expect(normalizeHost(input)).toBe(host))
})

describe('host and token', () => {
  it('takes the flag, then COLLAB_HOST, GITLAB_HOST, then a CI job', () => {
    const ci = { CI_API_V4_URL: 'https://ci.example.com/api/v4', CI_JOB_TOKEN: 'job' }
    expect(explicitHost({ host: 'flag.example' }, { COLLAB_HOST: 'c.example', ...ci })).toEqual({ value: 'https://flag.example', source: '--host' })
    expect(explicitHost({}, { COLLAB_HOST: 'c.example', GITLAB_HOST: 'g.example', ...ci })).toEqual({ value: 'https://c.example', source: 'COLLAB_HOST' })
    expect(explicitHost({}, { GITLAB_HOST: 'g.example', ...ci })).toEqual({ value: 'https://g.example', source: 'GITLAB_HOST' })
    expect(explicitHost({}, ci)).toEqual({ value: 'https://ci.example.com', source: 'CI_API_V4_URL' })
    expect(explicitHost({}, { CI_API_V4_URL: ci.CI_API_V4_URL })).toBeUndefined()
  })

  it('falls back to the default host, or the only stored one', () => {
    expect(defaultHost(config({ default_host: 'http://a:1', hosts: { 'http://b:1': {} } }))).toEqual({ value: 'http://a:1', source: 'config' })
    expect(defaultHost(config({ hosts: { 'http://b:1': {} } }))).toEqual({ value: 'http://b:1', source: 'config' })
    expect(defaultHost(config({ hosts: { 'http://b:1': {}, 'http://c:1': {} } }))).toBeUndefined()
  })

  it('takes the flag, COLLAB_TOKEN, GITLAB_TOKEN, the job token for its own instance, then the stored token', () => {
    const stored = config({ hosts: { 'https://h.example': { token: 'stored' } } })
    const ci = { CI_API_V4_URL: 'https://h.example/api/v4', CI_JOB_TOKEN: 'job' }
    expect(resolveToken('https://h.example', { token: 'flag' }, { COLLAB_TOKEN: 'c' }, stored)).toEqual({ token: 'flag', header: 'PRIVATE-TOKEN', source: '--token' })
    expect(resolveToken('https://h.example', {}, { COLLAB_TOKEN: 'c', GITLAB_TOKEN: 'g' }, stored)).toEqual({ token: 'c', header: 'PRIVATE-TOKEN', source: 'COLLAB_TOKEN' })
    expect(resolveToken('https://h.example', {}, { GITLAB_TOKEN: 'g', ...ci }, stored)).toEqual({ token: 'g', header: 'PRIVATE-TOKEN', source: 'GITLAB_TOKEN' })
    expect(resolveToken('https://h.example', {}, ci, stored)).toEqual({ token: 'job', header: 'JOB-TOKEN', source: 'CI_JOB_TOKEN' })
    expect(resolveToken('https://other.example', {}, ci, stored)).toBeUndefined()
    expect(resolveToken('https://h.example', {}, {}, stored)).toEqual({ token: 'stored', header: 'PRIVATE-TOKEN', source: 'config' })
  })
})

describe('project arguments', () => {
  it.each([
    ['42', { ref: '42' }],
    ['group/sub/project', { ref: 'group/sub/project' }],
    ['/group/project/', { ref: 'group/project' }],
    ['http://127.0.0.1:3000/group/project.git', { ref: 'group/project', host: 'http://127.0.0.1:3000' }],
    ['https://gitlab.example.com/group/project/-/issues/3', { ref: 'group/project', host: 'https://gitlab.example.com' }],
    ['project', { ref: 'project', bare: true }],
    ['a b/c', undefined],
  ])('%s', (value, parsed) => expect(parseProjectArg(value)).toEqual(parsed))

  it('reads COLLAB_PROJECT before CI_PROJECT_ID', () => {
    expect(projectFromEnv({ COLLAB_PROJECT: 'g/p', CI_PROJECT_ID: '7' })).toEqual({ value: 'g/p', source: 'COLLAB_PROJECT' })
    expect(projectFromEnv({ CI_PROJECT_ID: '7' })).toEqual({ value: '7', source: 'CI_PROJECT_ID' })
  })
})

describe('git remotes', () => {
  it('parses remote sections of a git config', () => {
    expect(parseRemotes([
      '[core]', '\turl = not-a-remote', '[remote "origin"]', '\turl = git@h.example:g/p.git', '\turl = ignored-second-url',
      '[branch "main"]', '\tremote = origin', '[remote "up stream"]', '  URL = "https://h.example/u/p"', '; comment',
    ].join('\n'))).toEqual([{ name: 'origin', url: 'git@h.example:g/p.git' }, { name: 'up stream', url: 'https://h.example/u/p' }])
  })

  it.each([
    ['git@h.example:g/p.git', { protocol: 'ssh:', hostname: 'h.example', host: 'h.example', path: 'g/p.git' }],
    ['ssh://git@h.example:2222/g/p.git', { protocol: 'ssh:', hostname: 'h.example', host: 'h.example:2222', path: '/g/p.git' }],
    ['http://127.0.0.1:3000/g/p.git', { protocol: 'http:', hostname: '127.0.0.1', host: '127.0.0.1:3000', path: '/g/p.git' }],
    ['/srv/repo.git', undefined],
  ])('parses %s', (url, parsed) => expect(parseRemoteUrl(url)).toEqual(parsed))

  it('matches remotes against hosts by origin (and path prefix) or, over ssh, by hostname', () => {
    expect(projectOnHost('http://127.0.0.1:3000/g/sub/p.git', 'http://127.0.0.1:3000')).toBe('g/sub/p')
    expect(projectOnHost('http://127.0.0.1:3001/g/p.git', 'http://127.0.0.1:3000')).toBeUndefined()
    expect(projectOnHost('https://h.example/gitlab/g/p', 'https://h.example/gitlab')).toBe('g/p')
    expect(projectOnHost('https://h.example/other/g/p', 'https://h.example/gitlab')).toBeUndefined()
    expect(projectOnHost('git@h.example:g/p.git', 'https://h.example')).toBe('g/p')
    expect(projectOnHost('https://h.example/p.git', 'https://h.example')).toBeUndefined()
  })

  it('prefers origin, then file order', () => {
    const remotes = [{ name: 'fork', url: 'https://h.example/me/p.git' }, { name: 'origin', url: 'https://h.example/g/p.git' }]
    expect(matchRemotes(remotes, ['https://h.example'])).toEqual({ host: 'https://h.example', project: 'g/p', remote: 'origin' })
    expect(matchRemotes(remotes.slice(0, 1), ['https://h.example'])).toEqual({ host: 'https://h.example', project: 'me/p', remote: 'fork' })
    expect(matchRemotes(remotes, ['https://other.example'])).toBeUndefined()
  })

  describe('on disk', () => {
    let dir: string
    afterEach(() => rmSync(dir, { recursive: true, force: true }))

    it('walks up to .git, and follows a worktree .git file to the main config', async () => {
      dir = mkdtempSync(join(tmpdir(), 'collab-remote-'))
      mkdirSync(join(dir, 'main', '.git', 'worktrees', 'wt'), { recursive: true })
      writeFileSync(join(dir, 'main', '.git', 'config'), '[remote "origin"]\n\turl = http://127.0.0.1:3000/g/p.git\n')
      writeFileSync(join(dir, 'main', '.git', 'worktrees', 'wt', 'commondir'), '../..\n')
      mkdirSync(join(dir, 'wt', 'src'), { recursive: true })
      writeFileSync(join(dir, 'wt', '.git'), `gitdir: ${join(dir, 'main', '.git', 'worktrees', 'wt')}\n`)
      mkdirSync(join(dir, 'main', 'a', 'b'), { recursive: true })

      expect(await findGitConfig(join(dir, 'main', 'a', 'b'))).toBe(join(dir, 'main', '.git', 'config'))
      expect(await findGitConfig(join(dir, 'wt', 'src'))).toBe(join(dir, 'main', '.git', 'config'))
      expect(await projectFromGitRemote(join(dir, 'wt', 'src'), ['http://127.0.0.1:3000'])).toEqual({ host: 'http://127.0.0.1:3000', project: 'g/p', remote: 'origin' })
      expect(await projectFromGitRemote(dir, ['http://127.0.0.1:3000'])).toBeUndefined()
    })
  })
})
