// gitAvailable looks git up on the PATH that git's children get, without running it: an executable file named git.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = mkdtempSync(join(tmpdir(), 'collab-git-available-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const exec = new URL('../../../src/server/git/exec.ts', import.meta.url).pathname

/** What gitAvailable answers in a fresh process whose PATH is `path`. */
function availableWith(path: string): string {
  const script = `const { gitAvailable } = await import(${JSON.stringify(exec)}); process.stdout.write(String(await gitAvailable()))`
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { PATH: path }, encoding: 'utf8' })
}

function dirWith(name: string, git?: { mode: number }): string {
  const dir = join(root, name)
  mkdirSync(dir)
  if (git) {
    writeFileSync(join(dir, 'git'), '#!/bin/sh\n')
    chmodSync(join(dir, 'git'), git.mode)
  }
  return dir
}

describe('gitAvailable', () => {
  it('answers true when a directory of PATH holds an executable git, false when none does', () => {
    const none = dirWith('none')
    const plain = dirWith('plain', { mode: 0o644 })
    const executable = dirWith('executable', { mode: 0o755 })
    expect(availableWith(none)).toBe('false')
    expect(availableWith(`${none}:${plain}`)).toBe('false')
    expect(availableWith(`${none}:relative/dir:${executable}`)).toBe('true')
    expect(availableWith('')).toBe('false')
  })
})
