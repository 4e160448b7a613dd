// A job's variables as the runner prepares them (gitlab-runner's Build.GetAllVariables, then Variables.Expand): the
// runner's own, which name where it put the job, around the server's, and one pass that expands every value that is
// not raw against that list, so `$CI_PROJECT_DIR` in a variable names the job's real checkout.
import { join } from 'node:path'
import type { RunnerJobPayload } from '../../contract/entities/runner-job.js'
import { VERSION } from '../../core/version.js'

export interface PreparedVariable {
  key: string
  value: string
  public: boolean
  masked: boolean
  /** The value is written to a file; the variable (and a reference to it) names the file's path. */
  file: boolean
  raw: boolean
}

export interface RunnerSide {
  /** gitlab-runner's builds_dir: CI_BUILDS_DIR. */
  buildsDir: string
  /** The job's checkout: CI_PROJECT_DIR. */
  workDir: string
  /** Where file variables are written (the job's temp directory, readable in the sandbox). */
  filesDir: string
  runnerId: string
  /** The environment the job's shell starts from: what a variable that refers to itself (`PATH: "$PATH:…"`) extends. */
  base: Readonly<Record<string, string>>
}

/** Go's one-character shell names (os.Expand): `$$` is a `$`, the others expand to nothing in gitlab-runner. */
const SPECIAL = new Set('*#$@!?-0123456789')
const NAME_CHAR = /[A-Za-z0-9_]/

/** The name after a `$` at `at` and how many characters it takes, as Go's os.Expand reads it; '' with a width for bad syntax. */
function shellName(s: string, at: number): [string, number] {
  if (s[at] === '{') {
    if (at + 2 < s.length && SPECIAL.has(s[at + 1]) && s[at + 2] === '}') return [s[at + 1], 3]
    const close = s.indexOf('}', at + 1)
    if (close === -1) return ['', 1]
    return [s.slice(at + 1, close), close - at + 1]
  }
  if (SPECIAL.has(s[at])) return [s[at], 1]
  let end = at
  while (end < s.length && NAME_CHAR.test(s[end])) end++
  return [s.slice(at, end), end - at]
}

/**
 * `value` with `$NAME`, `${NAME}` and `$$` expanded as gitlab-runner's ExpandValue does (Go's os.Expand): `$$` is a
 * literal `$`, a name `lookup` does not know and the one-character shell names (`$1`, `$?`) expand to nothing, and a
 * `$` followed by no name stays.
 */
export function expandLikeRunner(value: string, lookup: (name: string) => string | undefined): string {
  let out = ''
  let copied = 0
  for (let j = 0; j < value.length - 1; j++) {
    if (value[j] !== '$') continue
    out += value.slice(copied, j)
    const [name, width] = shellName(value, j + 1)
    if (name === '' && width === 0) out += '$'
    else if (name === '$') out += '$'
    else if (name !== '' && !SPECIAL.has(name)) out += lookup(name) ?? ''
    j += width
    copied = j + 1
  }
  return out + value.slice(copied)
}

/** Where a file variable's value is written: its path is the variable's value in the job. */
export const variableFilePath = (filesDir: string, key: string) => join(filesDir, key.replace(/[^A-Za-z0-9_]/g, '_'))

/**
 * The job's variables in gitlab-runner's order, later ones winning: the directories the runner really uses, the
 * server's variables, then what describes the runner; every value that is not raw expanded once against the list as
 * received (the server already expanded what it knows), a file variable's reference giving its path.
 */
export function prepareVariables(job: RunnerJobPayload, side: RunnerSide): PreparedVariable[] {
  const own = (key: string, value: string): PreparedVariable => ({ key, value, public: true, masked: false, file: false, raw: false })
  const list: PreparedVariable[] = [
    own('CI_BUILDS_DIR', side.buildsDir), own('CI_PROJECT_DIR', side.workDir), own('CI_JOB_TIMEOUT', String(job.runner_info.timeout)),
    ...job.variables.map((v) => ({ key: v.key, value: v.value, public: v.public, masked: v.masked, file: v.file === true, raw: v.raw === true })),
    own('CI_SHARED_ENVIRONMENT', 'true'), own('CI_RUNNER_DESCRIPTION', side.runnerId), own('CI_RUNNER_VERSION', VERSION),
    own('CI_RUNNER_EXECUTABLE_ARCH', `${process.platform}/${process.arch}`),
  ]
  const byKey = new Map<string, number[]>()
  list.forEach((v, i) => byKey.set(v.key, [...(byKey.get(v.key) ?? []), i]))
  const valueAt = (j: number) => (list[j].file ? variableFilePath(side.filesDir, list[j].key) : list[j].value)
  return list.map((v, i) => {
    if (v.raw) return v
    const value = expandLikeRunner(v.value, (name) => {
      const defs = byKey.get(name) ?? []
      // A variable naming itself extends the definition below it, or the shell's starting environment (where
      // gitlab-runner would read its own unexpanded value back).
      const below = defs.at(-1) === i ? defs.filter((j) => j < i) : defs
      if (below.length) return valueAt(below.at(-1)!)
      return defs.length ? side.base[name] : undefined
    })
    return { ...v, value }
  })
}
