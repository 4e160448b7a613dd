// The pages' one way to show a moment and a length of time: relative words ("3 hours ago") in a <time> element whose
// title holds the exact UTC time (shown on hover) and whose datetime holds the ISO value; durations as "1m 05s".
import type { Clock } from '../../core/clock.js'
import { relativeWords } from '../../core/relative-time.js'
import { html, type Html } from './html.js'

/** The exact time for the hover title: `2026-11-29 07:13:41 UTC`. */
export const exactTime = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`

/** A moment as relative words with the exact time on hover; nothing for a missing or unreadable value. */
export function timeAgo(now: Date, iso: string | null | undefined): Html {
  const d = iso ? new Date(iso) : null
  if (!d || Number.isNaN(d.getTime())) return html``
  return html`<time datetime="${d.toISOString()}" title="${exactTime(d)}">${relativeWords(d.getTime(), now.getTime(), { weeks: true })}</time>`
}

/** Seconds as "45s", "1m 05s", "2h 03m"; a duration not known (not started) is "-". */
export function durationText(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '-'
  const s = Math.round(seconds)
  const pad = (n: number) => String(n).padStart(2, '0')
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`
  return `${Math.floor(s / 3600)}h ${pad(Math.floor((s % 3600) / 60))}m`
}

/** Seconds from one moment to another, or to now while the second has not come (a running job or pipeline). */
export function secondsBetween(start: string | null | undefined, end: string | null | undefined, now: Date): number | null {
  if (!start) return null
  const from = new Date(start).getTime()
  const to = end ? new Date(end).getTime() : now.getTime()
  return Number.isNaN(from) || Number.isNaN(to) ? null : Math.max(0, (to - from) / 1000)
}

/** A duration in a <span class="duration"> with its exact seconds on hover. */
export function duration(seconds: number | null | undefined): Html {
  const text = durationText(seconds)
  return text === '-' ? html`<span class="duration muted">-</span>`
    : html`<span class="duration" title="${Math.round(seconds!)} second${Math.round(seconds!) === 1 ? '' : 's'}">${text}</span>`
}

/** timeAgo against the server's clock, for pages that have their context at hand. */
export const ago = (ctx: { app: { clock: Clock } }, iso: string | null | undefined) => timeAgo(ctx.app.clock.now(), iso)
