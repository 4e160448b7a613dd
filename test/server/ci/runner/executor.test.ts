// The shell executor end to end: jobs from a small job source written here, sources cloned over HTTP from a real
// collab server, scripts run in real shells, traces and artifacts stored by the real trace and artifact code.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { copyFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../../../src/core/logger.js'
import { dataLayout, type DataLayout } from '../../../../src/core/paths.js'
import { artifactsPath, storeArtifacts } from '../../../../src/server/ci/artifacts.js'
import type { JobUpdate, RunnerJobArtifactsSpec as JobArtifactSpec, RunnerJobPayload as JobPayload } from '../../../../src/contract/entities/runner-job.js'
import { isCollabError } from '../../../../src/core/errors.js'
import { ShellExecutor } from '../../../../src/runner/executor/shell.js'
import { TraceOffsetMismatch, type JobSource } from '../../../../src/runner/executor/source.js'
import { appendTrace, readTrace, traceSize } from '../../../../src/server/ci/traces.js'
import { api, createProject } from '../../../helpers/api.js'
import { gitCli, urlWithCredentials, type GitCli } from '../../../helpers/git-cli.js'
import { startTestServer, type TestServer } from '../../../helpers/server.js'

type JobVariable = Omit<JobPayload['variables'][number], 'file' | 'raw'> & { file?: boolean }
interface ArtifactUpload { path: string; expire_in: string | null }

/** The server's side, as small as the protocol allows: a queue, statuses, traces and artifacts on disk. */
class TestCoordinator implements JobSource {
  readonly queue: JobPayload[] = []
  readonly status = new Map<number, string>()
  readonly updates = new Map<number, JobUpdate[]>()
  readonly uploads = new Map<number, ArtifactUpload[]>()
  readonly appends = new Map<number, number>()
  private readonly listeners = new Map<number, Set<() => void>>()
  private readonly tokens = new Map<number, string>()

  constructor(readonly layout: DataLayout) {}

  enqueue(p: JobPayload) {
    this.queue.push(p)
    this.tokens.set(p.id, p.token)
  }

  private check(jobId: number, token: string) {
    if (this.tokens.get(jobId) !== token) throw new Error('403 Forbidden')
  }

  async requestJob() {
    const next = this.queue.shift() ?? null
    if (next) this.status.set(next.id, 'running')
    return next
  }

  async appendTrace(jobId: number, token: string, offset: number, chunk: Buffer) {
    this.check(jobId, token)
    this.appends.set(jobId, (this.appends.get(jobId) ?? 0) + 1)
    const status = this.status.get(jobId) ?? 'canceled'
    if (status !== 'running') return { size: traceSize(this.layout, jobId), status }
    // No masks here: the runner masks before it sends, so the stored log shows whether it did.
    try {
      const size = await appendTrace(this.layout, jobId, offset, chunk, { masks: [], capBytes: 8 * 1024 * 1024 })
      return { size, status: this.status.get(jobId)! }
    } catch (err) {
      if (isCollabError(err) && err.status === 416) throw new TraceOffsetMismatch(traceSize(this.layout, jobId))
      throw err
    }
  }

  async updateJob(jobId: number, token: string, update: JobUpdate) {
    this.check(jobId, token)
    this.updates.set(jobId, [...(this.updates.get(jobId) ?? []), update])
    if (update.state !== 'running') this.status.set(jobId, update.state)
    return { status: this.status.get(jobId)! }
  }

  async uploadArtifacts(jobId: number, token: string, path: string, expireIn: string | null) {
    this.check(jobId, token)
    this.uploads.set(jobId, [...(this.uploads.get(jobId) ?? []), { path, expire_in: expireIn }])
    await storeArtifacts(this.layout, jobId, path)
  }

  async downloadArtifacts(dependencyId: number, token: string, toPath: string) {
    if (![...this.tokens.values()].includes(token)) throw new Error('403 Forbidden')
    await copyFile(artifactsPath(this.layout, dependencyId), toPath)
  }

  onCancel(jobId: number, listener: () => void) {
    const set = this.listeners.get(jobId) ?? new Set()
    set.add(listener)
    this.listeners.set(jobId, set)
    return () => set.delete(listener)
  }

  cancel(jobId: number) {
    this.status.set(jobId, 'canceled')
    for (const l of this.listeners.get(jobId) ?? []) l()
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** Whether a live process is in the group (kill(-pgid, 0) also counts zombies that wait for a reaper). */
function processGroupAlive(pgid: number): boolean {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue
    }
    // Fields after the parenthesised command: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z') return true
  }
  return false
}

describe('shell executor', () => {
  let server: TestServer
  let git: GitCli
  let root: string
  let layout: DataLayout
  let coordinator: TestCoordinator
  let executor: ShellExecutor
  let sha: string
  let nextId = 100

  beforeAll(async () => {
    server = await startTestServer()
    git = gitCli()
    await createProject(api(server, server.rootToken), { name: 'runner-e2e', initialize_with_readme: true })
    const dir = join(git.root, 'runner-e2e')
    await git.run(git.root, 'clone', '-q', urlWithCredentials(server.url, '/root/runner-e2e.git', 'root', server.rootToken), dir)
    sha = await git.commit(dir, 'job sources', { 'hello.txt': 'hello from the repository\n' })
    await git.run(dir, 'tag', 'v1.0')
    await git.run(dir, 'push', '-q', 'origin', 'main', 'v1.0')
    root = mkdtempSync(join(tmpdir(), 'collab-executor-'))
    layout = dataLayout(join(root, 'data'))
  })
  afterAll(async () => {
    await server.close()
    git.cleanup()
    rmSync(root, { recursive: true, force: true })
  })
  afterEach(async () => {
    await executor?.stop()
  })

  function startExecutor(opts: { concurrency?: number } = {}) {
    coordinator = new TestCoordinator(layout)
    executor = new ShellExecutor(coordinator, {
      buildsDir: layout.builds, concurrency: opts.concurrency ?? 2, killGraceMs: 500, pollMs: 60_000, traceIntervalMs: 50, log: silentLogger,
      isolation: { kind: 'shell', hostEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root } },
    })
    executor.start()
  }

  function job(over: { script: string[]; after?: string[]; afterTimeout?: number; timeout?: number; variables?: JobVariable[]; artifacts?: Partial<JobArtifactSpec>[]; dependencies?: { id: number; name: string }[] }): JobPayload {
    const id = nextId++
    const token = `glcbt-job-token-${id}`
    const variables: JobVariable[] = [{ key: 'CI_JOB_TOKEN', value: token, public: false, masked: true }, ...(over.variables ?? [])]
    return {
      id, token, allow_git_fetch: true,
      job_info: { id, name: `job-${id}`, stage: 'test', project_id: 1, project_name: 'runner-e2e' },
      git_info: {
        repo_url: urlWithCredentials(server.url, '/root/runner-e2e.git', 'oauth2', server.rootToken), ref: 'main', sha, before_sha: '0'.repeat(40),
        ref_type: 'branch', refspecs: [], depth: 20, repo_object_format: 'sha1',
      },
      runner_info: { timeout: over.timeout ?? 60 },
      variables: variables.map((v) => ({ ...v, file: v.file === true, raw: false })),
      steps: [
        { name: 'script', script: over.script, timeout: over.timeout ?? 60, when: 'on_success', allow_failure: false },
        ...(over.after ? [{ name: 'after_script' as const, script: over.after, timeout: over.afterTimeout ?? 300, when: 'always' as const, allow_failure: true }] : []),
      ],
      artifacts: (over.artifacts ?? []).map((a) => ({
        name: 'artifacts', untracked: false, paths: [], exclude: [], when: 'on_success' as const, artifact_type: 'archive', artifact_format: 'zip', expire_in: '1 week', ...a,
      })),
      dependencies: (over.dependencies ?? []).map((d) => ({ ...d, token, artifacts_file: { filename: 'artifacts.zip', size: 1 } })),
      image: null, services: [], cache: [], credentials: [], features: {},
    }
  }

  /** Runs one job to its end; answers its updates and its trace, without the ANSI colours. */
  async function run(p: JobPayload) {
    coordinator.enqueue(p)
    executor.notify()
    const done = () => !['running', undefined].includes(coordinator.status.get(p.id)) && executor.running() === 0
    await until(`job ${p.id} to finish`, done)
    const trace = (await readTrace(layout, p.id)).toString()
    return { updates: coordinator.updates.get(p.id), trace, plain: trace.replace(/\x1b\[[0-9;]*m/g, '') }
  }

  it('clones the pushed commit, runs the script with the variables and reports success', async () => {
    startExecutor()
    const p = job({
      script: ['cat hello.txt', 'echo "var=$GREETING project_dir_ok=$([ "$CI_PROJECT_DIR" = "$PWD" ] && echo yes)"', 'cat "$CONFIG_FILE"', 'echo masked=$SECRET', 'git rev-parse HEAD', 'echo one\necho two\n'],
      variables: [
        { key: 'GREETING', value: 'hi there', public: true, masked: false },
        { key: 'CONFIG_FILE', value: 'from a file variable\n', public: false, masked: false, file: true },
        { key: 'SECRET', value: 'very-secret-value', public: false, masked: true },
      ],
    })
    const { updates, trace, plain } = await run(p)
    expect(updates).toEqual([{ state: 'running' }, { state: 'success', exit_code: 0 }])
    expect(trace).toContain('\x1b[32;1m$ cat hello.txt\x1b[0;m\nhello from the repository\n')
    const script = plain.slice(plain.indexOf('Executing "step_script"'))
    expect(script).toBe([
      'Executing "step_script" stage of the job script', '$ cat hello.txt', 'hello from the repository',
      `$ echo "var=$GREETING project_dir_ok=$([ "$CI_PROJECT_DIR" = "$PWD" ] && echo yes)"`, 'var=hi there project_dir_ok=yes',
      '$ cat "$CONFIG_FILE"', 'from a file variable', '$ echo masked=$SECRET', 'masked=[MASKED]', '$ git rev-parse HEAD', sha, '$ echo one # collapsed multi-line command', 'one', 'two', '', 'Job succeeded', '',
    ].join('\n'))
    expect(plain).toMatch(/^Running with collab runner \S+\n {2}on collab-shell-runner\nPreparing the "shell" executor\n/)
    expect(plain).toContain('Getting source from Git repository\nFetching changes with git depth set to 20...\n')
    expect(plain).toContain(`Checking out ${sha.slice(0, 8)} as detached HEAD (ref is main)...\n`)
    expect(trace).not.toContain(server.rootToken)
    expect(trace).not.toContain(p.token)
    expect(existsSync(join(layout.builds, String(p.id)))).toBe(false)
    expect(existsSync(join(layout.builds, `${p.id}.tmp`))).toBe(false)
  })

  it('fetches a tag for a tag pipeline', async () => {
    startExecutor()
    const p = job({ script: ['git describe --tags --exact-match'] })
    p.git_info = { ...p.git_info, ref: 'v1.0', ref_type: 'tag', depth: 0 }
    const { updates, plain } = await run(p)
    expect(updates?.at(-1)).toEqual({ state: 'success', exit_code: 0 })
    expect(plain).toContain('$ git describe --tags --exact-match\nv1.0\n')
    expect(plain).toContain(`Checking out ${sha.slice(0, 8)} as detached HEAD (ref is v1.0)...\n`)
  })

  it('stops at the first failing command and reports its exit code, pipes included', async () => {
    startExecutor()
    const failing = await run(job({ script: ['echo before', 'sh -c "exit 3"', 'echo never'] }))
    expect(failing.updates).toEqual([{ state: 'running' }, { state: 'failed', failure_reason: 'script_failure', exit_code: 3 }])
    expect(failing.plain).toContain('before\n$ sh -c "exit 3"\n\nERROR: Job failed: exit code 3\n')
    expect(failing.plain).not.toContain('never')
    const piped = await run(job({ script: ['false | cat', 'echo never'] }))
    expect(piped.updates?.at(-1)).toEqual({ state: 'failed', failure_reason: 'script_failure', exit_code: 1 })
    // Whether exit code 3 is an allowed failure is the coordinator's call: the runner reports the failure as it is.
    const allowed = { ...job({ script: ['exit 3'] }), allow_failure_exit_codes: [3] }
    expect((await run(allowed)).updates?.at(-1)).toEqual({ state: 'failed', failure_reason: 'script_failure', exit_code: 3 })
  })

  /**
   * A job's timeout runs from its start, as gitlab-runner's, so it covers the checkout too: with 1 s the checkout alone
   * outlasted it on a loaded 2-core machine, the script never printed its process group and the tests could not check
   * it was killed. 3 s leaves the script time to start.
   */
  const SCRIPT_REACHING_TIMEOUT = 3

  it('kills a job past its timeout and reports job_execution_timeout', async () => {
    startExecutor()
    // Had the timeout not killed it, the sleep would outlast the wait for the job's end (15 s) and the test would fail.
    const { updates, plain } = await run(job({ script: ['echo "pgid=$$"', 'sleep 30'], timeout: SCRIPT_REACHING_TIMEOUT }))
    expect(updates).toEqual([{ state: 'running' }, { state: 'failed', failure_reason: 'job_execution_timeout' }])
    expect(plain).toContain(`\nERROR: Job failed: execution took longer than ${SCRIPT_REACHING_TIMEOUT}s seconds\n`)
    expect(processGroupAlive(Number(/pgid=(\d+)/.exec(plain)![1]))).toBe(false)
  })

  it('sends SIGKILL after the grace period to a job that ignores SIGTERM', async () => {
    startExecutor()
    const { updates, plain } = await run(job({ script: ["trap '' TERM", 'echo "pgid=$$"', 'sleep 30'], timeout: SCRIPT_REACHING_TIMEOUT }))
    expect(updates?.at(-1)).toEqual({ state: 'failed', failure_reason: 'job_execution_timeout' })
    expect(processGroupAlive(Number(/pgid=(\d+)/.exec(plain)![1]))).toBe(false)
  })

  it('kills the whole process group of a canceled job, runs after_script with CI_JOB_STATUS=canceled and reports nothing more', async () => {
    startExecutor()
    const marker = join(root, 'after-cancel')
    const p = job({ script: ['echo "pgid=$$"', 'sleep 30 & sleep 30'], after: [`echo "$CI_JOB_STATUS" > ${marker}`] })
    coordinator.enqueue(p)
    executor.notify()
    let pgid = 0
    await until('the script to start', async () => {
      const m = /pgid=(\d+)/.exec((await readTrace(layout, p.id)).toString())
      if (m) pgid = Number(m[1])
      return m !== null
    })
    expect(processGroupAlive(pgid)).toBe(true)
    coordinator.cancel(p.id)
    await until('the job to stop', () => executor.running() === 0, 5000)
    expect(processGroupAlive(pgid)).toBe(false)
    expect(readFileSync(marker, 'utf8')).toBe('canceled\n')
    expect(coordinator.updates.get(p.id)).toEqual([{ state: 'running' }])
    expect(coordinator.uploads.get(p.id)).toBeUndefined()
  })

  it('runs after_script in its own shell with CI_JOB_STATUS, and its failure changes nothing', async () => {
    startExecutor()
    const ok = await run(job({ script: ['export ONLY_IN_SCRIPT=1', 'echo main'], after: ['echo "status=$CI_JOB_STATUS only=${ONLY_IN_SCRIPT:-unset}"', 'exit 4'] }))
    expect(ok.updates?.at(-1)).toEqual({ state: 'success', exit_code: 0 })
    expect(ok.plain).toContain('Running after_script\nRunning after script...\n$ echo "status=$CI_JOB_STATUS only=${ONLY_IN_SCRIPT:-unset}"\nstatus=success only=unset\n$ exit 4\nWARNING: after_script failed, but job will continue unaffected: exit code 4\n')
    const failed = await run(job({ script: ['exit 2'], after: ['echo "status=$CI_JOB_STATUS"'] }))
    expect(failed.updates?.at(-1)).toEqual({ state: 'failed', failure_reason: 'script_failure', exit_code: 2 })
    expect(failed.plain).toContain('status=failed\n')
    const slow = await run(job({ script: ['echo main'], after: ['sleep 30'], afterTimeout: 1 }))
    expect(slow.updates?.at(-1)).toEqual({ state: 'success', exit_code: 0 })
    expect(slow.plain).toContain('$ sleep 30\nWARNING: after_script timed out, but job will continue unaffected\n\nJob succeeded\n')
  })

  it('uploads artifacts by `when` and extracts them into a dependent job', async () => {
    startExecutor()
    const producer = job({
      script: ['mkdir -p out/sub', 'echo built > out/result.txt', 'echo deep > out/sub/deep.txt', 'echo junk > out/junk.tmp'],
      artifacts: [{ paths: ['out/'], exclude: ['out/*.tmp'] }, { name: 'only-on-failure', paths: ['out/'], when: 'on_failure' }],
    })
    const made = await run(producer)
    expect(made.updates?.at(-1)).toEqual({ state: 'success', exit_code: 0 })
    expect(coordinator.uploads.get(producer.id)).toEqual([{ path: join(layout.builds, `${producer.id}.tmp`, 'artifacts-0.zip'), expire_in: '1 week' }])
    expect(made.plain).toContain('Uploading artifacts for successful job\nUploading artifacts...\nFound 4 matching artifact files and directories\n')
    const consumer = job({
      script: ['cat out/result.txt out/sub/deep.txt', 'test ! -e out/junk.tmp && echo no-junk'],
      dependencies: [{ id: producer.id, name: producer.job_info.name }],
    })
    const used = await run(consumer)
    expect(used.updates?.at(-1)).toEqual({ state: 'success', exit_code: 0 })
    expect(used.plain).toContain(`Downloading artifacts for ${producer.job_info.name} (${producer.id})...\n`)
    expect(used.plain).toContain('built\ndeep\n$ test ! -e out/junk.tmp && echo no-junk\nno-junk\n')
  })

  it('uploads on_failure artifacts of a failed job and warns about paths that match nothing', async () => {
    startExecutor()
    const p = job({ script: ['echo log > failure.log', 'exit 1'], artifacts: [{ paths: ['failure.log', 'missing/'], when: 'on_failure' }] })
    const { updates, plain } = await run(p)
    expect(updates?.at(-1)).toEqual({ state: 'failed', failure_reason: 'script_failure', exit_code: 1 })
    expect(coordinator.uploads.get(p.id)).toHaveLength(1)
    expect(plain).toContain('Uploading artifacts for failed job\nUploading artifacts...\nWARNING: missing/: no matching files.')
  })

  it('streams the log while the job runs, in few appends, with binary bytes kept', async () => {
    startExecutor()
    const p = job({ script: ['echo first', 'sleep 1', "printf '\\000\\377\\376\\n'", 'head -c 3000000 /dev/zero | tr "\\0" a', 'echo'] })
    coordinator.enqueue(p)
    executor.notify()
    await until('the first line', async () => (await readTrace(layout, p.id)).includes('\nfirst\n'))
    expect(coordinator.status.get(p.id)).toBe('running')
    await until('the job to finish', () => coordinator.status.get(p.id) === 'success' && executor.running() === 0)
    const trace = await readTrace(layout, p.id)
    expect(trace.includes(Buffer.from([0x00, 0xff, 0xfe, 0x0a]))).toBe(true)
    expect(trace.includes(Buffer.from(`\n${'a'.repeat(3_000_000)}\x1b[32;1m$ echo\x1b[0;m\n\n`))).toBe(true)
    // The bulk goes in appends of 64 to 128 KiB (a chunk gathered, plus the pipe read that crossed the mark), the rest
    // in a few timed ones: neither one append per pipe read nor the whole output at once.
    expect(coordinator.appends.get(p.id)).toBeGreaterThan(20)
    expect(coordinator.appends.get(p.id)).toBeLessThan(70)
  })

  it('fails with a system failure, naming no token, when the commit cannot be fetched', async () => {
    startExecutor()
    const p = job({ script: ['echo never'] })
    p.git_info.sha = 'f'.repeat(40)
    const { updates, trace, plain } = await run(p)
    expect(updates).toEqual([{ state: 'running' }, { state: 'failed', failure_reason: 'runner_system_failure' }])
    expect(plain).toContain(`fatal: reference is not a tree: ${'f'.repeat(40)}\n`)
    expect(plain.endsWith('\nERROR: Job failed (system failure): git checkout exited with code 128\n')).toBe(true)
    expect(plain).not.toContain('$ echo never')
    expect(trace).not.toContain(server.rootToken)
  })

  it('runs jobs side by side up to its concurrency, and stop() kills what runs', async () => {
    startExecutor({ concurrency: 2 })
    const jobs = [job({ script: ['sleep 30'] }), job({ script: ['sleep 30'] }), job({ script: ['sleep 30'] })]
    for (const p of jobs) coordinator.enqueue(p)
    executor.notify()
    await until('two jobs to run', () => executor.running() === 2)
    expect(coordinator.queue).toHaveLength(1)
    await executor.stop()
    expect(executor.running()).toBe(0)
    for (const p of jobs.slice(0, 2)) expect(coordinator.updates.get(p.id)?.at(-1)).toEqual({ state: 'failed', failure_reason: 'runner_system_failure' })
    expect(coordinator.queue).toHaveLength(1)
  })
})
