// CI durations (ChronicDuration's forms: a day is 24 hours, a bare number is seconds) and artifacts:expire_in.
import { describe, expect, it } from 'vitest'
import { expireInSeconds, parseCiDuration as parseDuration } from '../../src/core/durations.js'

describe('parseDuration', () => {
  it.each([
    ['90', 90], ['0', 0], ['3600', 3600], ['30 days', 30 * 86400], ['1 week', 7 * 86400], ['2 hrs', 7200],
    ['1h 30m', 5400], ['1h30m', 5400], ['1 hour and 30 minutes', 5400], ['1 day, 2 hours', 93600], ['45s', 45],
    ['10 mins', 600], ['1.5 hours', 5400], ['2 weeks 1 day', 15 * 86400], ['1 month', 30 * 86400], ['1 year', 31557600],
    ['  5 minutes  ', 300], ['1:30', 90], ['1:00:00', 3600], ['3 Days', 3 * 86400], ['42 sec', 42],
  ])('%j is %d seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds)
  })

  it.each(['', 'soon', '1 fortnight', 'hours', '-5', '1h foo', 'never', '1 constructor', '12abc'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeNull()
  })
})

describe('expireInSeconds', () => {
  it('keeps forever with never, in any case', () => {
    expect(expireInSeconds('never')).toBe('never')
    expect(expireInSeconds(' Never ')).toBe('never')
  })

  it('reads durations and bare seconds', () => {
    expect(expireInSeconds('30 days')).toBe(2592000)
    expect(expireInSeconds('3600')).toBe(3600)
  })

  it('is null for anything else', () => {
    expect(expireInSeconds('tomorrow')).toBeNull()
  })
})
