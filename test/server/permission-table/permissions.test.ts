// The permission table, checked over HTTP: every role × resource kind × project visibility × read/write against one
// seeded server, each cell its own test named after it. The table and its departures from GitLab live in table.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sendCell, successOf } from './requests.js'
import { expandTable, RULES, type Cell } from './table.js'
import { buildWorld, type World } from './world.js'

let world: World

beforeAll(async () => {
  world = await buildWorld()
}, 60_000)
afterAll(async () => {
  await world?.close()
})

const cells = expandTable(successOf)
const name = (c: Cell) =>
  `${c.role} ${c.op}s ${c.resource} (${RULES[c.resource].what[c.op]}) of a ${c.visibility} project: ${c.expected}${c.differs ? ` (GitLab ${c.gitlab}: ${c.differs})` : ''}`

async function check(c: Cell) {
  const reply = await sendCell(world, c.resource, c.op, world.projects[c.visibility], world.credential(c.role, c.visibility))
  expect(reply.status, reply.text.slice(0, 200)).toBe(c.expected)
}

describe.each(['private', 'internal', 'public'] as const)('a %s project', (visibility) => {
  const mine = cells.filter((c) => c.visibility === visibility)
  const plain = mine.filter((c) => !c.pending)
  const pending = mine.filter((c) => c.pending)
  if (plain.length) it.each(plain.map((c) => [name(c), c] as const))('%s', async (_, c) => check(c))
  // Known defects being fixed elsewhere: these fail today, and start failing here once fixed (then turn their `pending` into `fixed` in table.ts).
  if (pending.length) it.fails.each(pending.map((c) => [`${name(c)} [pending: ${c.pending}]`, c] as const))('%s', async (_, c) => check(c))
})
