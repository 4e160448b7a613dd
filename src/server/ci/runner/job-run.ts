// One job on the built-in shell executor, in gitlab-runner's order: fetch the commit, download the dependencies'
// artifacts, run before_script + script, after_script, upload artifacts, report the result.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { Logger } from '../../../core/logger.js'
import type { DataLayout } from '../../../core/paths.js'
import { VERSION } from '../../../core/version.js'
import { GitCommandError } from '../../git/exec.js'
import { checkoutCommit } from '../../git/work-tree.js'
import { createArtifactsZip, extractArtifacts } from '../artifacts.js'
import { goDuration, green, red, section, yellow } from './messages.js'
import type { JobArtifactSpec, JobCoordinator, JobPayload, JobUpdate } from './protocol.js'
import { findShell, runScript, scriptText, type ScriptResult } from './script.js'
import { TraceStream } from './trace-stream.js'

export interface JobRunContext {
  coordinator: JobCoordinator
  layout: DataLayout
  runnerId: string
  /** HOME, PATH and the like, from the server's environment; job variables come on top. */
  hostEnv: Record<string, string>
  killGraceMs: number
  traceIntervalMs?: number
  log: Logger
}

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

  constructor(private readonly ctx: JobRunContext, private readonly job: JobPayload) {
    this.workDir = join(ctx.layout.builds, String(job.id))
    this.tmpDir = join(ctx.layout.builds, `${job.id}.tmp`)
    this.trace = new TraceStream(ctx.coordinator, job.id, job.token, {
      intervalMs: ctx.traceIntervalMs, log: ctx.log, onCanceled: () => this.interrupt('canceled'),
    })
  }

  /** Kills what runs now; the first reason given is the one reported. */
  interrupt(reason: StopReason) {
    this.reason ??= reason
    this.abort.abort()
    if (reason === 'stopped') this.stopping.abort()
  }

  async run(): Promise<void> {
    const { coordinator } = this.ctx
    const unsubscribe = coordinator.onCancel(this.job.id, () => this.interrupt('canceled'))
    const timer = setTimeout(() => this.interrupt('timeout'), this.job.runner_info.timeout * 1000)
    try {
      const state = await coordinator.updateJob(this.job.id, this.job.token, { state: 'running' }).catch(() => ({ status: 'running' }))
      if (state.status === 'canceled') this.interrupt('canceled')
      const update = await this.execute().catch((err: unknown) => {
        // A job must never stay running at the coordinator because the runner tripped.
        this.ctx.log.error(`job ${this.job.id} on the shell executor`, err)
        return this.fail(`ERROR: Job failed (system failure): ${this.hideToken((err as Error).message)}`, { state: 'failed', failure_reason: 'runner_system_failure' })
      })
      clearTimeout(timer)
      await this.trace.finish()
      if (update) await coordinator.updateJob(this.job.id, this.job.token, update)
    } catch (err) {
      this.ctx.log.error(`job ${this.job.id}: reporting to the coordinator failed`, err)
    } finally {
      clearTimeout(timer)
      unsubscribe()
      await rm(this.workDir, { recursive: true, force: true }).catch(() => undefined)
      await rm(this.tmpDir, { recursive: true, force: true }).catch(() => undefined)
    }
  }

  /** Runs every stage; answers the final update, or null when the job was canceled (the coordinator already knows). */
  private async execute(): Promise<JobUpdate | null> {
    const t = this.trace
    t.line(`Running with collab runner ${VERSION}`)
    t.line(`  on ${this.ctx.runnerId}`)
    t.line(section('Preparing the "shell" executor'))
    t.line('Using Shell executor...')
    t.line(section('Preparing environment'))
    t.line(`Running on ${hostname()}...`)
    let exitCode: number | null = null
    try {
      await this.prepare()
      await this.getSources()
      await this.downloadDependencies()
      t.line(section('Executing "step_script" stage of the job script'))
      exitCode = (await this.runStep('script', {})).exitCode
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
      if (!dep.artifacts_path || this.reason) continue
      this.trace.line(section(`Downloading artifacts for ${dep.name} (${dep.id})...`))
      try {
        await extractArtifacts(dep.artifacts_path, this.workDir)
      } catch (err) {
        throw new SystemFailure(`the artifacts of ${dep.name} (${dep.id}) could not be extracted: ${(err as Error).message}`)
      }
      this.trace.line(`Downloading artifacts from coordinator... ok        id=${dep.id} responseStatus=200 OK`)
    }
  }

  private async environment(extra: Record<string, string>): Promise<Record<string, string>> {
    const env: Record<string, string> = { ...this.ctx.hostEnv }
    for (const v of this.job.variables) {
      if (!v.file) {
        env[v.key] = v.value
        continue
      }
      const path = join(this.tmpDir, v.key.replace(/[^A-Za-z0-9_]/g, '_'))
      await writeFile(path, v.value, { mode: 0o600 })
      env[v.key] = path
    }
    return {
      ...env, CI_PROJECT_DIR: this.workDir, CI_BUILDS_DIR: this.ctx.layout.builds, CI_RUNNER_DESCRIPTION: this.ctx.runnerId,
      CI_RUNNER_VERSION: VERSION, CI_RUNNER_EXECUTABLE_ARCH: `${process.platform}/${process.arch}`, CI_SHARED_ENVIRONMENT: 'true', ...extra,
    }
  }

  /** Runs one step's commands in a fresh shell; a step with no commands succeeds at once. */
  private async runStep(name: 'script' | 'after_script', extra: Record<string, string>, signal = this.abort.signal): Promise<ScriptResult> {
    const step = this.job.steps.find((s) => s.name === name)
    if (!step || step.script.length === 0) return { exitCode: 0, timedOut: false, aborted: false }
    const env = await this.environment(extra)
    const shell = findShell(env.PATH ?? '')
    const scriptFile = join(this.tmpDir, `${name}.sh`)
    await writeFile(scriptFile, scriptText(step.script, shell.kind), { mode: 0o700 })
    const timeoutMs = name === 'script' ? this.job.runner_info.timeout * 1000 : step.timeout * 1000
    const result = await runScript({
      shell: shell.file, scriptFile, cwd: this.workDir, env, output: this.trace, timeoutMs, killGraceMs: this.ctx.killGraceMs, signal,
    })
    await this.trace.flush()
    if (name === 'script' && result.timedOut) this.interrupt('timeout')
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

  private async uploadOne(spec: JobArtifactSpec, zipPath: string): Promise<boolean> {
    const t = this.trace
    t.line('Uploading artifacts...')
    try {
      const { entries, unmatched } = await createArtifactsZip(this.workDir, spec, zipPath)
      for (const path of unmatched) t.line(yellow(`WARNING: ${path}: no matching files. Ensure that the artifact path is relative to the working directory (${this.workDir})`))
      if (entries === 0) {
        t.line(red('ERROR: No files to upload'))
        return true
      }
      t.line(`Found ${entries} matching artifact files and directories`)
      await this.ctx.coordinator.uploadArtifacts(this.job.id, this.job.token, {
        path: zipPath, expire_in: spec.expire_in, artifact_type: spec.artifact_type, artifact_format: spec.artifact_format,
      })
      t.line(`Uploading artifacts as "archive" to coordinator... 201 Created  id=${this.job.id} responseStatus=201 Created`)
      return true
    } catch (err) {
      t.line(red(`ERROR: Uploading artifacts as "archive" to coordinator... failed: ${this.hideToken((err as Error).message)}`))
      return false
    }
  }

  private hideToken(text: string) {
    return text.split(this.job.token).join('[MASKED]')
  }
}
