// One job on the shell executor, in gitlab-runner's order: fetch the commit, download the dependencies' artifacts,
// run before_script + script, after_script, upload artifacts, report the result. With a sandbox, every step's shell
// runs inside bubblewrap and sees the job's directory and variables only.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { JobUpdate, RunnerJobArtifactsSpec, RunnerJobPayload } from '../../contract/entities/runner-job.js'
import { GitCommandError } from '../../core/git-error.js'
import type { Logger } from '../../core/logger.js'
import { VERSION } from '../../core/version.js'
import { SANDBOX_HOME, type SandboxSpec } from '../sandbox.js'
import { createArtifactsZip, extractArtifacts } from './artifacts.js'
import { expandArtifactsSpec } from './artifacts-paths.js'
import { checkoutCommit } from './checkout.js'
import { goDuration, green, red, section, yellow } from './messages.js'
import { findShell, runScript, scriptText, shellQuote, type ScriptResult } from './script.js'
import type { JobSource } from './source.js'
import { TraceStream } from './trace-stream.js'
import { prepareVariables, variableFilePath, type PreparedVariable } from './variables.js'

/** Where a job's shell runs: the runner's own user and environment, or bubblewrap with only what it must see. */
export type Isolation = { kind: 'shell'; hostEnv: Record<string, string> } | { kind: 'sandbox'; hide: readonly string[]; expose?: readonly string[] }

export interface JobRunContext {
  source: JobSource
  /** Jobs' working directories go here, one `<job id>` each (gitlab-runner's builds_dir). */
  buildsDir: string
  runnerId: string
  isolation: Isolation
  /** How to run this collab (node and its script): a `collab` after the PATH's own, for `release:` steps and scripts. */
  collabCommand?: readonly string[]
  killGraceMs: number
  traceIntervalMs?: number
  /** How often a source that cannot say "canceled" at once is asked for the job's status (a PUT over HTTP). */
  heartbeatMs?: number
  log: Logger
}

/** PATH and locale of a sandboxed job: the system's, as a fresh login shell of a container image would have them. */
const SANDBOX_ENV = { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: SANDBOX_HOME, LANG: 'C.UTF-8' }

type StopReason = 'timeout' | 'canceled' | 'stopped'

/** A failure of the runner's own steps (fetch, artifacts), reported as a system failure, not the script's. */
class SystemFailure extends Error {}

export class JobRun {
  private readonly abort = new AbortController()
  /** Fires only when the runner stops: after_script outlives a cancel or a timeout, not that. */
  private readonly stopping = new AbortController()
  private reason: StopReason | null = null
  private readonly workDir: string
  private readonly tmpDir: string
  private readonly trace: TraceStream
  /** The job's variables as this runner expanded them, with the directories it really uses. */
  private readonly variables: PreparedVariable[]

  constructor(private readonly ctx: JobRunContext, private readonly job: RunnerJobPayload) {
    this.workDir = join(ctx.buildsDir, String(job.id))
    this.tmpDir = join(ctx.buildsDir, `${job.id}.tmp`)
    this.variables = prepareVariables(job, { buildsDir: ctx.buildsDir, workDir: this.workDir, filesDir: this.tmpDir, runnerId: ctx.runnerId, base: this.baseEnvironment() })
    this.trace = new TraceStream(ctx.source, job.id, job.token, {
      intervalMs: ctx.traceIntervalMs, log: ctx.log, onCanceled: () => this.interrupt('canceled'),
      // Expanded values, as gitlab-runner masks them: a masked value inside another variable is masked there too.
      masks: this.variables.filter((v) => v.masked).map((v) => v.value),
    })
  }

  /** Kills what runs now; the first reason given is the one reported. */
  interrupt(reason: StopReason) {
    this.reason ??= reason
    this.abort.abort()
    if (reason === 'stopped') this.stopping.abort()
  }

  async run(): Promise<void> {
    const { source } = this.ctx
    const unsubscribe = source.onCancel?.(this.job.id, () => this.interrupt('canceled')) ?? (() => {})
    const timer = setTimeout(() => this.interrupt('timeout'), this.job.runner_info.timeout * 1000)
    const heartbeat = source.onCancel ? undefined : setInterval(() => this.checkCanceled(), this.ctx.heartbeatMs ?? 1000)
    try {
      const state = await source.updateJob(this.job.id, this.job.token, { state: 'running' }).catch(() => ({ status: 'running' }))
      if (state.status === 'canceled') this.interrupt('canceled')
      const update = await this.execute().catch((err: unknown) => {
        // A job must never stay running at the coordinator because the runner tripped.
        this.ctx.log.error(`job ${this.job.id} on the ${this.ctx.isolation.kind} executor`, err)
        return this.fail(`ERROR: Job failed (system failure): ${this.hideToken((err as Error).message)}`, { state: 'failed', failure_reason: 'runner_system_failure' })
      })
      clearTimeout(timer)
      await this.trace.finish()
      if (update) await source.updateJob(this.job.id, this.job.token, update)
    } catch (err) {
      this.ctx.log.error(`job ${this.job.id}: reporting to the server failed`, err)
    } finally {
      clearTimeout(timer)
      clearInterval(heartbeat)
      unsubscribe()
      await rm(this.workDir, { recursive: true, force: true }).catch(() => undefined)
      await rm(this.tmpDir, { recursive: true, force: true }).catch(() => undefined)
    }
  }

  /** A job quiet for a while still learns of its cancel: the server answers its status to a running update. */
  private checkCanceled() {
    if (this.reason) return
    this.ctx.source.updateJob(this.job.id, this.job.token, { state: 'running' }).then((s) => {
      if (s.status === 'canceled' || s.status === 'canceling') this.interrupt('canceled')
    }, () => undefined)
  }

  /** Runs every stage; answers the final update, or null when the job was canceled (the coordinator already knows). */
  private async execute(): Promise<JobUpdate | null> {
    const t = this.trace
    t.line(`Running with collab runner ${VERSION}`)
    t.line(`  on ${this.ctx.runnerId}`)
    const sandboxed = this.ctx.isolation.kind === 'sandbox'
    t.line(section(`Preparing the "${sandboxed ? 'sandbox' : 'shell'}" executor`))
    t.line(sandboxed ? 'Using the bubblewrap sandbox: read-only system, private /tmp and HOME, no view of other files...' : 'Using Shell executor...')
    t.line(section('Preparing environment'))
    t.line(`Running on ${hostname()}...`)
    let exitCode: number | null = null
    try {
      await this.prepare()
      await this.getSources()
      await this.downloadDependencies()
      t.line(section('Executing "step_script" stage of the job script'))
      exitCode = (await this.runStep('script', {})).exitCode
      // gitlab-runner runs every step but after_script in order, each only after the last succeeded.
      if (exitCode === 0 && !this.reason && this.job.steps.some((s) => s.name === 'release')) {
        t.line(section('Executing "step_release" stage of the job script'))
        exitCode = (await this.runStep('release', {})).exitCode
      }
    } catch (err) {
      // Interrupted mid-stage, the reason decides below; otherwise one of the runner's own stages failed.
      if (!this.reason) {
        if (!(err instanceof SystemFailure)) throw err
        return this.fail(`ERROR: Job failed (system failure): ${err.message}`, { state: 'failed', failure_reason: 'runner_system_failure' })
      }
    }
    if (this.reason === 'stopped') return this.fail('ERROR: Job failed: the runner was stopped', { state: 'failed', failure_reason: 'runner_system_failure' })
    const succeeded = this.reason === null && exitCode === 0
    if (exitCode !== null) await this.afterScript(this.reason === 'canceled' ? 'canceled' : succeeded ? 'success' : 'failed')
    if (this.reason === 'canceled') {
      t.line(red('ERROR: Job failed: canceled'))
      return null
    }
    const uploaded = await this.uploadArtifacts(succeeded)
    if (this.reason === 'timeout') {
      return this.fail(`ERROR: Job failed: execution took longer than ${goDuration(this.job.runner_info.timeout)} seconds`, { state: 'failed', failure_reason: 'job_execution_timeout' })
    }
    if (!succeeded) return this.fail(`ERROR: Job failed: exit code ${exitCode}`, { state: 'failed', failure_reason: 'script_failure', exit_code: exitCode ?? 1 })
    if (!uploaded) return this.fail('ERROR: Job failed: the artifacts could not be uploaded', { state: 'failed', failure_reason: 'runner_system_failure' })
    t.line('')
    t.line(green('Job succeeded'))
    return { state: 'success', exit_code: 0 }
  }

  private fail(message: string, update: JobUpdate): JobUpdate {
    this.trace.line('')
    this.trace.line(red(message))
    return update
  }

  private async prepare() {
    await rm(this.workDir, { recursive: true, force: true })
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 })
    const self = this.collabCommand()
    if (self) {
      await mkdir(join(this.tmpDir, 'bin'))
      await writeFile(join(this.tmpDir, 'bin', 'collab'), `#!/bin/sh\nexec ${self.map(shellQuote).join(' ')} "$@"\n`, { mode: 0o755 })
    }
  }

  private async getSources() {
    const g = this.job.git_info
    const t = this.trace
    t.line(section('Getting source from Git repository'))
    t.line(`Fetching changes with git depth set to ${g.depth}...`)
    t.line(`Initialized empty Git repository in ${this.workDir}/.git/`)
    t.line('Created fresh repository.')
    try {
      await checkoutCommit({
        url: g.repo_url, dir: this.workDir, ref: g.ref, refType: g.ref_type, refspecs: g.refspecs, sha: g.sha, depth: g.depth,
        onOutput: (chunk) => this.trace.write(chunk), signal: this.abort.signal,
      })
    } catch (err) {
      // git's own message is in the trace already.
      throw new SystemFailure(err instanceof GitCommandError ? `git ${err.args[0]} exited with code ${err.code}` : this.hideToken((err as Error).message))
    }
    t.line(`Checking out ${g.sha.slice(0, 8)} as detached HEAD (ref is ${g.ref})...`)
    t.line('')
    t.line('Skipping Git submodules setup')
  }

  private async downloadDependencies() {
    for (const dep of this.job.dependencies) {
      if (!dep.artifacts_file.filename || this.reason) continue
      this.trace.line(section(`Downloading artifacts for ${dep.name} (${dep.id})...`))
      const zip = join(this.tmpDir, `dependency-${dep.id}.zip`)
      try {
        await this.ctx.source.downloadArtifacts(dep.id, dep.token, zip)
      } catch (err) {
        throw new SystemFailure(`the artifacts of ${dep.name} (${dep.id}) could not be downloaded: ${this.hideToken((err as Error).message)}`)
      }
      try {
        await extractArtifacts(zip, this.workDir)
      } catch (err) {
        throw new SystemFailure(`the artifacts of ${dep.name} (${dep.id}) could not be extracted: ${(err as Error).message}`)
      } finally {
        await rm(zip, { force: true })
      }
      this.trace.line(`Downloading artifacts from coordinator... ok        id=${dep.id} responseStatus=200 OK`)
    }
  }

  /** The environment a step's shell starts from: the runner's own user's, or the sandbox's system one. */
  private baseEnvironment(): Record<string, string> {
    const iso = this.ctx.isolation
    return iso.kind === 'shell' ? { ...iso.hostEnv } : { ...SANDBOX_ENV }
  }

  private async environment(extra: Record<string, string>): Promise<Record<string, string>> {
    const env = this.baseEnvironment()
    for (const v of this.variables) {
      if (!v.file) {
        env[v.key] = v.value
        continue
      }
      const path = variableFilePath(this.tmpDir, v.key)
      await writeFile(path, v.value, { mode: 0o600 })
      env[v.key] = path
    }
    // A collab installed on the system wins; this runner's own is the fallback (in the sandbox it reads the runner's
    // files directory, and collab serve exposes collab's package).
    if (this.collabCommand()) env.PATH = `${env.PATH ? `${env.PATH}:` : ''}${join(this.tmpDir, 'bin')}`
    return { ...env, ...extra }
  }

  /** node and collab's script, when this runner knows both (a bundled executable may not). */
  private collabCommand(): readonly string[] | undefined {
    const self = this.ctx.collabCommand
    return self?.length && self.every((part) => typeof part === 'string' && part !== '') ? self : undefined
  }

  /** Runs one step's commands in a fresh shell; a step with no commands succeeds at once. */
  private async runStep(name: 'script' | 'release' | 'after_script', extra: Record<string, string>, signal = this.abort.signal): Promise<ScriptResult> {
    const step = this.job.steps.find((s) => s.name === name)
    if (!step || step.script.length === 0) return { exitCode: 0, timedOut: false, aborted: false }
    const env = await this.environment(extra)
    const shell = findShell(env.PATH ?? '')
    const iso = this.ctx.isolation
    const sandbox: SandboxSpec | undefined = iso.kind === 'sandbox'
      ? { workDir: this.workDir, jobFilesDir: this.tmpDir, hide: iso.hide, expose: iso.expose, home: SANDBOX_HOME } : undefined
    const scriptFile = join(this.tmpDir, `${name}.sh`)
    await writeFile(scriptFile, scriptText(step.script, shell.kind), { mode: 0o700 })
    const timeoutMs = name === 'script' ? this.job.runner_info.timeout * 1000 : step.timeout * 1000
    const result = await runScript({
      shell: shell.file, scriptFile, cwd: this.workDir, env, output: this.trace, timeoutMs, killGraceMs: this.ctx.killGraceMs, signal, sandbox,
    })
    await this.trace.flush()
    if (name !== 'after_script' && result.timedOut) this.interrupt('timeout')
    return result
  }

  private async afterScript(status: 'success' | 'failed' | 'canceled') {
    if (!this.job.steps.some((s) => s.name === 'after_script' && s.script.length > 0)) return
    this.trace.line('')
    this.trace.line(section('Running after_script'))
    this.trace.line('Running after script...')
    const result = await this.runStep('after_script', { CI_JOB_STATUS: status }, this.stopping.signal)
    if (result.timedOut) this.trace.line(yellow('WARNING: after_script timed out, but job will continue unaffected'))
    else if (result.exitCode) this.trace.line(yellow(`WARNING: after_script failed, but job will continue unaffected: exit code ${result.exitCode}`))
  }

  /** Uploads each artifacts entry whose `when` matches; false when an upload failed. */
  private async uploadArtifacts(succeeded: boolean): Promise<boolean> {
    let ok = true
    for (const [i, spec] of this.job.artifacts.entries()) {
      if (!(spec.when === 'always' || (spec.when === 'on_success') === succeeded)) continue
      this.trace.line('')
      this.trace.line(section(`Uploading artifacts for ${succeeded ? 'successful' : 'failed'} job`))
      if (!(await this.uploadOne(spec, join(this.tmpDir, `artifacts-${i}.zip`)))) ok = false
    }
    return ok
  }

  private async uploadOne(spec: RunnerJobArtifactsSpec, zipPath: string): Promise<boolean> {
    const t = this.trace
    t.line('Uploading artifacts...')
    try {
      const { entries, unmatched } = await createArtifactsZip(this.workDir, expandArtifactsSpec(spec, this.workDir, this.artifactVariables()), zipPath)
      for (const path of unmatched) t.line(yellow(`WARNING: ${path}: no matching files. Ensure that the artifact path is relative to the working directory (${this.workDir})`))
      if (entries === 0) {
        t.line(red('ERROR: No files to upload'))
        return true
      }
      t.line(`Found ${entries} matching artifact files and directories`)
      await this.ctx.source.uploadArtifacts(this.job.id, this.job.token, zipPath, spec.expire_in)
      t.line(`Uploading artifacts as "archive" to coordinator... 201 Created  id=${this.job.id} responseStatus=201 Created`)
      return true
    } catch (err) {
      t.line(red(`ERROR: Uploading artifacts as "archive" to coordinator... failed: ${this.hideToken((err as Error).message)}`))
      return false
    }
  }

  /** What artifact paths may name: the job's variables as expanded here, where this runner put the job among them. */
  private artifactVariables(): Map<string, string> {
    return new Map(this.variables.map((v) => [v.key, v.file ? variableFilePath(this.tmpDir, v.key) : v.value]))
  }

  private hideToken(text: string) {
    return text.split(this.job.token).join('[MASKED]')
  }
}
