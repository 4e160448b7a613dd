// The error catalogue: codes outside it do not compile, notFound() throws the code the compiler derives for its
// subject, a throw that names no status is answered with the catalogue's, and every subject is one something raises.
import { readdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, NOT_FOUND_SUBJECTS } from '../../src/core/error-codes.js'
import { authRequired, failure, usageError } from '../../src/cli/errors.js'
import { CollabError, notFound } from '../../src/core/errors.js'

const ROOT = resolve(import.meta.dirname, '../..')
const tree = (dir: string): string[] => readdirSync(resolve(ROOT, dir), { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? tree(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []))

describe('error codes', () => {
  it('refuse, at compile time, a code that is not catalogued (npm test type-checks first)', () => {
    // @ts-expect-error: not in ERROR_CODES and no notFound() subject's code
    const invented = () => new CollabError('SOMETHING_WENT_WRONG', 'boom')
    // @ts-expect-error: `_NOT_FOUND` alone no longer makes a code; the subject must be catalogued
    const unlisted = () => new CollabError('SPACESHIP_NOT_FOUND', '404 Spaceship Not Found')
    // @ts-expect-error: a message that is no catalogued subject must name its code
    const sentence = () => notFound('Spaceship is parked elsewhere')
    expect([invented, unlisted, sentence].map((make) => make().code)).toEqual(['SOMETHING_WENT_WRONG', 'SPACESHIP_NOT_FOUND', 'SPACESHIP_IS_PARKED_ELSEWHERE_NOT_FOUND'])
  })

  it.each(NOT_FOUND_SUBJECTS.map((s) => [s]))('notFound(%j) throws its derived code, 404 and GitLab\'s message', (subject) => {
    expect(subject).toMatch(/^[A-Za-z0-9]+( [A-Za-z0-9]+)*$/)
    const err = notFound(subject)
    expect([err.code, err.status, err.body]).toEqual([`${subject.toUpperCase().split(' ').join('_')}_NOT_FOUND`, 404, { message: `404 ${subject} Not Found` }])
  })

  it('answer a throw that names no status with the catalogue\'s', () => {
    expect(new CollabError('THROTTLED', 'Retry later').status).toBe(ERROR_CODES.THROTTLED)
    expect(new CollabError('PIPELINE_NOT_CREATED', 'no').status).toBe(400)
    expect(new CollabError('BAD_REQUEST', 'no', { status: 422 }).status).toBe(422)
    expect(new CollabError('MERGE_REQUEST_NOT_FOUND', '404 Merge Request Not Found').status).toBe(404)
    expect([usageError('x'), authRequired('x'), failure('x')].map((e) => e.status)).toEqual([400, 401, 500])
  })

  it('catalogue only subjects something raises (literally, or as the tail of a template such as `${kind} Access Token`)', () => {
    const sources = ['src', 'commands'].flatMap(tree).filter((f) => !f.endsWith('error-codes.ts')).map((f) => readFileSync(resolve(ROOT, f), 'utf8')).join('\n')
    const raised = (s: string) => sources.includes(`'${s}'`) || sources.includes(`} ${s.split(' ').slice(1).join(' ')}\``)
    expect(NOT_FOUND_SUBJECTS.filter((s) => !raised(s))).toEqual([])
  })
})
