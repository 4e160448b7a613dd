// The only place that reads the wall clock; tests pass a fixed clock instead.
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export function fixedClock(start: Date | string, stepMs = 0): Clock {
  let t = new Date(start).getTime()
  return {
    now() {
      const d = new Date(t)
      t += stepMs
      return d
    },
  }
}

/** ISO timestamp with milliseconds and `Z`, the form GitLab serializes. */
export const iso = (d: Date) => d.toISOString()
