// `npm run setup`: puts `collab` on the PATH as a symlink to this checkout's bin/collab.js, so completion scripts, the
// git credential helper and every README command find it from any directory.
// Where: $COLLAB_BIN_DIR if set; else npm's global bin directory when writable (root, or a user-owned npm prefix);
// else ~/.local/bin (created), the directory Debian's and Fedora's shells put on the PATH of a user.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, lstatSync, mkdirSync, readlinkSync, symlinkSync, unlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'

const target = resolve(new URL('../bin/collab.js', import.meta.url).pathname)

function npmGlobalBin() {
  try {
    const prefix = execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return process.platform === 'win32' ? prefix : join(prefix, 'bin')
  } catch {
    return undefined
  }
}

const writable = (dir) => {
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

function chooseDir() {
  if (process.env.COLLAB_BIN_DIR) return process.env.COLLAB_BIN_DIR
  const global = npmGlobalBin()
  if (global && writable(global)) return global
  return join(homedir(), '.local', 'bin')
}

const dir = chooseDir()
mkdirSync(dir, { recursive: true })
const link = join(dir, 'collab')
let existing
try {
  existing = lstatSync(link)
} catch {}
if (existing && !existing.isSymbolicLink()) {
  console.error(`error: ${link} exists and is not a symlink; remove it or set COLLAB_BIN_DIR, then run npm run setup again`)
  process.exit(1)
}
if (existing && readlinkSync(link) !== target) unlinkSync(link)
if (!existing || readlinkSync(link) !== target) symlinkSync(target, link)

const onPath = (process.env.PATH ?? '').split(delimiter).some((entry) => entry && resolve(entry) === resolve(dir))
console.log(`collab -> ${target} (in ${dir})`)
if (!onPath) {
  console.log(`${dir} is not on your PATH yet; for this shell and the next ones run:`)
  console.log(`  export PATH="${dir}:$PATH"; echo 'export PATH="${dir}:$PATH"' >> ~/.profile`)
}
