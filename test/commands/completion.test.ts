// collab completion and __complete: the committed scripts are exactly what the CLI prints (UPDATE_COMPLETIONS=1 rewrites them).
import { readFileSync, writeFileSync } from 'node:fs'
import { execa } from 'execa'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BIN, cli, ok, type Cli } from './cli.js'

let c: Cli
beforeEach(() => {
  c = cli()
})
afterEach(() => c.cleanup())

const committed = (shell: string) => new URL(`../../completions/collab.${shell}`, import.meta.url)

describe('collab completion <shell>', () => {
  it.each(['bash', 'zsh', 'fish'])('prints completions/collab.%s', async (shell) => {
    const printed = await c.run(['completion', shell])
    if (process.env.UPDATE_COMPLETIONS) writeFileSync(committed(shell), printed.stdout)
    expect(printed).toEqual(ok(readFileSync(committed(shell), 'utf8')))
  })
})

describe('collab __complete', () => {
  it.each([
    [['pro'], 'project\tWork with projects: list, view, create, edit, clone, fork, star, archive, members, branches, tags, files\n'],
    [['com'], 'commit\tWork with commits: list, view, create, diff, cherry-pick, comment, statuses\ncompletion\tPrint a shell completion script (bash, zsh or fish)\n'],
    [['commit', 'status', 'set', 'abc', '--state', ''], 'pending\t\nrunning\t\nsuccess\t\nfailed\t\ncanceled\t\n'],
    [['commit', 'cherry'], 'cherry-pick\tApply a commit onto a branch as a new commit\n'],
    [['project', 'branch', ''], 'list\tList the branches of a project\ncreate\tCreate a branch\ndelete\tDelete a branch\nprotect\tProtect a branch or a wildcard such as release/*\nunprotect\tRemove the protection of a branch or wildcard\nprotected\tList the protected branches and wildcards of a project\nhelp\tshow help for a command\n'],
    [['project', 'me'], 'members\tList and manage the members of a project\n'],
    [['project', 'members', ''], 'list\tList the members of a project\nadd\tAdd a member to a project\nedit\tChange a member\'s access level\nremove\tRemove a member from a project\nhelp\tshow help for a command\n'],
    [['project', 'list', '--vis'], '--visibility\tonly projects with this visibility\n'],
    [['project', 'list', '--visibility', ''], 'private\t\ninternal\t\npublic\t\n'],
    [['project', 'list', '--search', 'x', '--sort', 'a'], 'asc\t\n'],
    [['project', 'members', 'add', 'alice', '-a', ''], ''],
    [['completion', ''], 'bash\t\nzsh\t\nfish\t\n'],
    [['config', 'get', '-'], '--host\tthe value for one instance\n--help\tshow help\n-h\tshow help\n'],
    [['api', '--pag'], '--paginate\tfollow Link rel="next" and join the pages\n'],
    [['api', 'projects/:id/issues/:issue_iid/time_'], 'projects/:id/issues/:issue_iid/time_estimate\tPOST\nprojects/:id/issues/:issue_iid/time_stats\tGET\n'],
    [['api', 'projects/:id/members/a'], 'projects/:id/members/all\tGET\nprojects/:id/members/all/:user_id\tGET\n'],
  ])('%j', async (words, stdout) => {
    expect(await c.run(['__complete', ...words])).toEqual(ok(stdout))
  })

  it('drives the bash script: COMPREPLY holds the candidates, also after --flag= and inside api paths with colons', async () => {
    const tab = (line: string) => `COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; _collab; echo "\${COMPREPLY[*]}"`
    const script = [
      `collab() { node ${JSON.stringify(BIN)} "$@"; }`,
      `source ${JSON.stringify(committed('bash').pathname)}`,
      tab('collab project list --visibility '),
      tab('collab au'),
      tab('collab project list --visibility=p'),
      tab('collab api projects/:id/issues/:issue_iid/time_s'),
    ].join('\n')
    const { stdout } = await execa('bash', ['-c', script], { env: { COLLAB_CONFIG_DIR: c.configDir } })
    expect(stdout).toBe('private internal public\nauth\nprivate public\nissue_iid/time_stats')
  }, 60_000)
})
