// The architecture of DESIGN.md, checked: dependency-cruiser applies .dependency-cruiser.cjs (the rules, each with
// its reason) to every import of src/ and commands/. A violation names the file, the import and the rule.
import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

interface Violation { from: string; to: string; rule: { name: string }; cycle?: Array<{ name: string }> }

describe('dependency rules', () => {
  it('hold for every import of src/ and commands/', { timeout: 120_000 }, () => {
    const out = execFileSync(process.execPath, [resolve(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      'src', 'commands', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
    const { summary } = JSON.parse(out) as { summary: { violations: Violation[]; totalCruised: number } }
    const found = summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`)
    expect(found).toEqual([])
    // The rules see the whole tree, not an empty one a broken config would cruise.
    expect(summary.totalCruised).toBeGreaterThan(500)
  })
})
