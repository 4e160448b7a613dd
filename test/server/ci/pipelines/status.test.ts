// The composite status table of compat-mr-ci-wiki §4.8 (GitLab 17's Gitlab::Ci::Status::Composite).
import { describe, expect, it } from 'vitest'
import { compositeStatus } from '../../../../src/server/ci/status.js'

/** `failed!` is an allowed failure; plain names are blocking jobs. */
const jobs = (spec: string) => spec.split(/\s+/).filter(Boolean).map((s) => ({ status: s.replace(/!$/, ''), allowFailure: s.endsWith('!') }))

const table: [string, string][] = [
  ['', 'skipped'],
  ['skipped', 'skipped'],
  ['manual!', 'skipped'],
  ['skipped manual!', 'skipped'],
  ['success', 'success'],
  ['success skipped', 'success'],
  ['success failed!', 'success'],
  ['success canceled!', 'success'],
  ['failed!', 'success'],
  ['success manual!', 'success'],
  ['created', 'created'],
  ['created manual!', 'created'],
  ['created failed!', 'created'],
  ['preparing', 'preparing'],
  ['canceled', 'canceled'],
  ['canceled success skipped', 'canceled'],
  ['canceled failed!', 'canceled'],
  ['pending', 'pending'],
  ['pending created', 'pending'],
  ['pending skipped manual!', 'pending'],
  ['running', 'running'],
  ['running success', 'running'],
  ['pending success', 'running'],
  ['running failed', 'running'],
  ['pending failed', 'running'],
  ['waiting_for_resource success', 'waiting_for_resource'],
  ['manual', 'manual'],
  ['manual success', 'manual'],
  ['manual failed', 'manual'],
  ['manual created', 'manual'],
  ['scheduled', 'scheduled'],
  ['scheduled success', 'scheduled'],
  ['manual scheduled', 'manual'],
  ['preparing success', 'preparing'],
  ['created success', 'running'],
  ['created failed', 'running'],
  ['failed', 'failed'],
  ['failed success', 'failed'],
  ['failed canceled', 'failed'],
  ['failed skipped', 'failed'],
  ['failed manual!', 'failed'],
  ['canceled failed', 'failed'],
]

describe('compositeStatus', () => {
  it.each(table)('[%s] is %s', (input, expected) => {
    expect(compositeStatus(jobs(input))).toBe(expected)
  })
})
