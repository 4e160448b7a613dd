// Sends one hook message: GitLab's headers, a 10 s deadline, retries with backoff on network errors and 5xx, every
// attempt logged, and GitLab's auto-disabling after repeated failures. Nothing here runs inside a request.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import { GITLAB_COMPAT_VERSION } from '../../../core/version.js'
import { ciBaseUrl } from '../../ci/lifecycle-events.js'
import type { AppDeps } from '../../context.js'
import { nowIso } from '../../context.js'
import { transaction } from '../../store/db.js'
import * as store from '../../store/hooks.js'
import { deliveryRefusal, expandHookUrl, guardedLookup, parseHookUrl } from './webhook-addresses.js'

export interface HookMessage {
  /** The log's trigger: push_hooks, issue_hooks, system_hooks … */
  trigger: string
  /** X-Gitlab-Event: Push Hook, Issue Hook, System Hook … */
  event: string
  payload: unknown
  /** One per event: the same on every retry and on every hook, so receivers can drop duplicates. */
  idempotencyKey: string
}

export interface Outcome { status: string; ok: boolean; retryable: boolean; body: string; logId: number | null }

export interface DeliveryOptions { timeoutMs: number; retryDelaysMs: number[]; failuresToDisable: number; failuresToDisablePermanently: number }
const DEFAULTS: DeliveryOptions = { timeoutMs: 10_000, retryDelaysMs: [1_000, 10_000, 60_000], failuresToDisable: 4, failuresToDisablePermanently: 40 }
const RESPONSE_BODY_LIMIT = 64 * 1024
const MAX_BACKOFF_MS = 24 * 3600 * 1000

interface State { opts: DeliveryOptions; pending: Set<Promise<void>>; aborts: Set<AbortController>; stopped: boolean }
const states = new WeakMap<AppDeps, State>()

function stateOf(app: AppDeps): State {
  let s = states.get(app)
  if (!s) states.set(app, (s = { opts: { ...DEFAULTS }, pending: new Set(), aborts: new Set(), stopped: false }))
  return s
}

/** Deadline, retry delays and failure thresholds (tests shorten them). */
export function configureDeliveries(app: AppDeps, opts: Partial<DeliveryOptions>) {
  Object.assign(stateOf(app).opts, opts)
}

/** Aborts what is in flight and cancels pending retries; resolves once nothing will write any more. */
export async function stopDeliveries(app: AppDeps) {
  const s = stateOf(app)
  s.stopped = true
  for (const a of s.aborts) a.abort()
  while (s.pending.size) await Promise.all([...s.pending])
}

/** Settles when every delivery started so far (retries included) has finished. */
export async function deliveriesIdle(app: AppDeps) {
  const s = stateOf(app)
  while (s.pending.size) await Promise.all([...s.pending])
}

interface Reply { status: number; headers: Record<string, string>; body: string }

interface PostOptions { verifyTls: boolean; timeoutMs: number; signal: AbortSignal; lookup: ReturnType<typeof guardedLookup> }

async function post(url: URL, headers: Record<string, string>, body: string, o: PostOptions): Promise<Reply> {
  // node:https (and tls with it) loads at the first https delivery: imported with the module, it held 2 MB of every
  // server's memory, most never sending one.
  const lib = url.protocol === 'https:' ? (await import('node:https')).default : http
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: 'POST', headers, rejectUnauthorized: o.verifyTls, signal: o.signal, ...(o.lookup ? { lookup: o.lookup } : {}) })
    const deadline = setTimeout(() => req.destroy(new Error('execution expired')), o.timeoutMs)
    req.on('error', (err) => { clearTimeout(deadline); reject(err) })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(c.subarray(0, RESPONSE_BODY_LIMIT - size))
        size += c.length
      })
      res.on('error', (err) => { clearTimeout(deadline); reject(err) })
      res.on('end', () => {
        clearTimeout(deadline)
        const h: Record<string, string> = {}
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks).toString('utf8') })
      })
    })
    req.end(body)
  })
}

function requestHeaders(app: AppDeps, hook: store.HookRow, msg: HookMessage): Record<string, string> {
  const custom = JSON.parse(hook.custom_headers) as Record<string, string>
  const uuid = randomUUID()
  return {
    ...custom,
    'Content-Type': 'application/json',
    'User-Agent': `GitLab/${GITLAB_COMPAT_VERSION}`,
    'X-Gitlab-Event': msg.event,
    'X-Gitlab-Webhook-UUID': uuid,
    'X-Gitlab-Event-UUID': msg.idempotencyKey,
    'X-Gitlab-Instance': ciBaseUrl(app),
    'Idempotency-Key': msg.idempotencyKey,
    ...(hook.token ? { 'X-Gitlab-Token': hook.token } : {}),
  }
}

/**
 * Logs an attempt without the hook's secrets, as GitLab's recent events show it: the secret token and custom header
 * values as [REDACTED], the URL as configured (its masked parts as `{variable}`), and a URL variable's value masked
 * wherever the reply or an error message repeats it.
 */
function writeLog(app: AppDeps, hook: store.HookRow, msg: HookMessage, headers: Record<string, string>, reply: Reply | null, error: string | null, ms: number) {
  const custom = Object.keys(JSON.parse(hook.custom_headers) as Record<string, string>)
  const shown = { ...headers }
  for (const name of [...custom, ...(hook.token ? ['X-Gitlab-Token'] : [])]) shown[name] = '[REDACTED]'
  const mask = maskUrlVariables(hook)
  try {
    return transaction(app.db, () => store.insertHookLog(app.db, {
      web_hook_id: hook.id, trigger: msg.trigger, url: hook.url, request_headers: JSON.stringify(shown), request_data: JSON.stringify(msg.payload),
      response_headers: mask(JSON.stringify(reply?.headers ?? {})), response_body: mask(reply?.body ?? ''), response_status: reply ? String(reply.status) : 'internal error',
      execution_duration: Math.round(ms * 100) / 100_000, internal_error_message: error === null ? null : mask(error), created_at: nowIso({ app }),
    }))
  } catch {
    // The hook was deleted meanwhile, or the server is closing: the attempt has nowhere to be logged.
    return null
  }
}

/** Replaces each URL variable's value in a text with `{key}`, longest values first (one may contain another). */
function maskUrlVariables(hook: store.HookRow): (text: string) => string {
  const vars = Object.entries(JSON.parse(hook.url_variables) as Record<string, string>).filter(([, v]) => v !== '').sort((a, b) => b[1].length - a[1].length)
  return (text) => vars.reduce((t, [key, value]) => t.split(value).join(`{${key}}`), text)
}

/**
 * The body sent: the payload as JSON, or the hook's custom_webhook_template with `{{path.to.field}}` filled in (strings
 * JSON-escaped without their quotes, so the template quotes them; other values as JSON).
 */
export function renderBody(hook: Pick<store.HookRow, 'custom_webhook_template'>, payload: unknown): string {
  if (!hook.custom_webhook_template) return JSON.stringify(payload)
  return hook.custom_webhook_template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_whole, path: string) => {
    let value: unknown = payload
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined
    if (value === undefined) return ''
    return typeof value === 'string' ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value)
  })
}

/** One attempt, logged. Never throws. */
export async function attemptDelivery(app: AppDeps, hook: store.HookRow, msg: HookMessage): Promise<Outcome> {
  const s = stateOf(app)
  const url = expandHookUrl(hook.url, JSON.parse(hook.url_variables) as Record<string, string>)
  const headers = requestHeaders(app, hook, msg)
  const started = performance.now()
  const parsed = parseHookUrl(url)
  const refusal = parsed ? await deliveryRefusal(app, parsed) : 'URI is invalid'
  let reply: Reply | null = null
  let error = refusal
  if (!refusal) {
    const abort = new AbortController()
    s.aborts.add(abort)
    try {
      const opts = { verifyTls: hook.enable_ssl_verification === 1, timeoutMs: s.opts.timeoutMs, signal: abort.signal, lookup: guardedLookup(app) }
      reply = await post(parsed!, headers, renderBody(hook, msg.payload), opts)
    } catch (err) {
      error = (err as Error).message || String(err)
    } finally {
      s.aborts.delete(abort)
    }
  }
  const logId = writeLog(app, hook, msg, headers, reply, error, performance.now() - started)
  if (!reply) return { status: 'internal error', ok: false, retryable: !refusal, body: error ?? '', logId }
  const ok = reply.status >= 200 && reply.status < 300
  return { status: String(reply.status), ok, retryable: reply.status >= 500 || reply.status === 429, body: reply.body, logId }
}

/** GitLab's auto-disabling: after a few failures in a row the hook rests, doubling the rest each time; after many, for good. */
function recordOutcome(app: AppDeps, hookId: number, ok: boolean) {
  const s = stateOf(app)
  try {
    transaction(app.db, () => {
      const hook = store.findHook(app.db, hookId)
      if (!hook) return
      if (ok) {
        if (hook.recent_failures || hook.backoff_count || hook.disabled_until) {
          store.recordHookOutcome(app.db, hookId, { recent_failures: 0, backoff_count: 0, disabled_until: null, permanently_disabled: 0 })
        }
        return
      }
      const failures = hook.recent_failures + 1
      const next = { recent_failures: failures, backoff_count: hook.backoff_count, disabled_until: hook.disabled_until, permanently_disabled: 0 }
      if (failures >= s.opts.failuresToDisablePermanently) next.permanently_disabled = 1
      else if (failures >= s.opts.failuresToDisable) {
        const rest = Math.min(60_000 * 2 ** hook.backoff_count, MAX_BACKOFF_MS)
        next.disabled_until = new Date(app.clock.now().getTime() + rest).toISOString()
        next.backoff_count = hook.backoff_count + 1
      }
      store.recordHookOutcome(app.db, hookId, next)
    })
  } catch {
    // Closing: the outcome is lost with the delivery.
  }
}

const sleep = (ms: number, signal: AbortSignal) => new Promise<void>((resolve) => {
  const t = setTimeout(resolve, ms)
  signal.addEventListener('abort', () => { clearTimeout(t); resolve() }, { once: true })
})

/** Delivers in the background with retries; the caller never waits. */
export function deliver(app: AppDeps, hook: store.HookRow, msg: HookMessage) {
  const s = stateOf(app)
  if (s.stopped) return
  const cancel = new AbortController()
  const run = (async () => {
    s.aborts.add(cancel)
    try {
      let outcome = await attemptDelivery(app, hook, msg)
      for (const delay of s.opts.retryDelaysMs) {
        if (outcome.ok || !outcome.retryable || s.stopped) break
        await sleep(delay, cancel.signal)
        // A hook deleted (or pointed elsewhere) meanwhile gets no more of this event, or gets it at its new URL.
        const current = s.stopped ? undefined : store.findHook(app.db, hook.id)
        if (!current) return
        outcome = await attemptDelivery(app, current, msg)
      }
      if (!s.stopped) recordOutcome(app, hook.id, outcome.ok)
    } finally {
      s.aborts.delete(cancel)
    }
  })().catch((err) => app.log.error('webhook delivery failed', err))
  s.pending.add(run)
  void run.finally(() => s.pending.delete(run))
}
