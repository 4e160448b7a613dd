// The one count behind every relative time the CLI, its templates and the web pages print.
import { describe, expect, it } from 'vitest'
import { relativeWords, timeSpan } from '../../src/core/relative-time.js'

const NOW = Date.parse('2024-01-05T03:04:05Z')
const S = 1000
const DAY = 86_400 * S

describe('relative time', () => {
  it('counts whole units of the largest that fits, rounding to the second first', () => {
    expect([59_499, 59_500, 119_999, 3_600 * S - 1, 3_600 * S, 2 * DAY, 29 * DAY, 30 * DAY, 364 * DAY, 365 * DAY, 800 * DAY].map((ms) => relativeWords(NOW - ms, NOW)))
      .toEqual(['just now', '1 minute ago', '2 minutes ago', '1 hour ago', '1 hour ago', '2 days ago', '29 days ago', '1 month ago', '12 months ago', '1 year ago', '2 years ago'])
  })

  it('counts weeks only when asked', () => {
    expect([6 * DAY, 7 * DAY, 20 * DAY].map((ms) => relativeWords(NOW - ms, NOW, { weeks: true }))).toEqual(['6 days ago', '1 week ago', '2 weeks ago'])
    expect(relativeWords(NOW - 20 * DAY, NOW)).toBe('20 days ago')
  })

  it('says "in" for a moment ahead, and just now under a minute either way', () => {
    expect([-DAY, -90 * S, -59 * S, -1].map((ms) => relativeWords(NOW - ms, NOW))).toEqual(['in 1 day', 'in 1 minute', 'just now', 'just now'])
  })

  it('hands the span and its side to callers that word it otherwise', () => {
    expect([timeSpan(NOW - 3 * DAY, NOW), timeSpan(NOW + 3_600 * S, NOW), timeSpan(NOW + 10 * S, NOW), timeSpan(NOW - 10 * S, NOW)]).toEqual([
      { words: '3 days', past: true }, { words: '1 hour', past: false }, { words: null, past: false }, { words: null, past: true },
    ])
  })
})
