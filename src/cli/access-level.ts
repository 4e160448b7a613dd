// GitLab access levels (compat-notes §2.1) by name or number, for flags and tables.
import { InvalidArgumentError } from 'commander'
import { ACCESS_LEVELS } from '../core/access-levels.js'

export { ACCESS_LEVELS }

const NAMES = new Map<number, string>([[5, 'minimal'], [15, 'planner'], ...Object.entries(ACCESS_LEVELS).map(([name, level]) => [level, name] as [number, string])])

export const accessLevelName = (level: number) => NAMES.get(level) ?? String(level)

/** A commander argument parser: `developer`, `Developer` or `30`. */
export function parseAccessLevel(value: string): number {
  const name = value.trim().toLowerCase()
  if (Object.hasOwn(ACCESS_LEVELS, name)) return ACCESS_LEVELS[name as keyof typeof ACCESS_LEVELS]
  if (/^\d+$/.test(name) && Object.values(ACCESS_LEVELS).includes(Number(name) as 10)) return Number(name)
  throw new InvalidArgumentError(`expected one of ${Object.keys(ACCESS_LEVELS).join(', ')} or 10, 20, 30, 40, 50`)
}
