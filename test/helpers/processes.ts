// The machine's process tree from /proc, for tests that check which process runs a job.
import { readdirSync, readFileSync } from 'node:fs'

/** pid -> [ppid, argv] of every live process. */
export function processTable(): Map<number, [number, string[]]> {
  const table = new Map<number, [number, string[]]>()
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      table.set(Number(pid), [ppid, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)])
    } catch {
      // Gone meanwhile.
    }
  }
  return table
}

/** The pids above `pid`, nearest first, up to (not including) `stop` or the table's end. */
export function ancestors(table: Map<number, [number, string[]]>, pid: number, stop: number): number[] {
  const out: number[] = []
  for (let p = table.get(pid)?.[0]; p && p !== stop && table.has(p); p = table.get(p)![0]) out.push(p)
  return out
}
