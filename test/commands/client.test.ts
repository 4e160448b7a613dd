// Client pieces without a server: Link parsing, joining raw pages, error messages, `collab api` field bodies.
import { describe, expect, it } from 'vitest'
import { buildBody } from '../../commands/api.js'
import { apiErrorMessage } from '../../src/client/errors.js'
import { joinJsonArrays, nextLink } from '../../src/client/pagination.js'

describe('nextLink', () => {
  it.each([
    ['<http://h/api/v4/projects?page=1>; rel="prev", <http://h/api/v4/projects?page=3>; rel="next", <http://h/x?page=1>; rel="first"', 'http://h/api/v4/projects?page=3'],
    ['<http://h/a?page=2>;rel="next"', 'http://h/a?page=2'],
    ['<http://h/a?page=2>; rel=next', 'http://h/a?page=2'],
    ['<http://h/a?page=1>; rel="first", <http://h/a?page=1>; rel="last"', undefined],
    [null, undefined],
  ])('%s', (header, next) => expect(nextLink(header)).toBe(next))
})

describe('joinJsonArrays', () => {
  it('returns a single page untouched and joins several byte for byte', () => {
    expect(joinJsonArrays(['[ {"a":1} ]'])).toBe('[ {"a":1} ]')
    expect(joinJsonArrays(['[{"a":1},{"b":"]"}]', '[]', '[{"c":[3]}]\n'])).toBe('[{"a":1},{"b":"]"},{"c":[3]}]')
    expect(() => joinJsonArrays(['[]', '{}'])).toThrow('a paginated response was not a JSON array')
  })
})

describe('apiErrorMessage', () => {
  it.each([
    [{ message: '404 Project Not Found' }, '404 Project Not Found'],
    [{ error: '404 Not Found' }, '404 Not Found'],
    [{ error: 'title is missing', message: 'ignored' }, 'title is missing'],
    [{ error: 'invalid_token', error_description: 'Token is expired.' }, 'invalid_token: Token is expired.'],
    [{ message: { name: ['has already been taken'] } }, 'name: has already been taken'],
    [{ message: { time_spent: ['has an invalid format'], base: ['a', 'b'] } }, 'time_spent: has an invalid format; base: a, b'],
    [{ message: 'Note {:note=>["can\'t be blank"]}' }, "note: can't be blank"],
    [{ message: '{:base=>["x"], :title=>["is too long", "is \\"odd\\""]}' }, 'base: x; title: is too long, is "odd"'],
    ['<html>bad gateway</html>', '502 Bad Gateway'],
  ])('%j', (body, message) => expect(apiErrorMessage(502, 'Bad Gateway', body)).toBe(message))
})

describe('buildBody', () => {
  it('types nothing itself and nests keys like gh api', () => {
    expect(buildBody([
      ['name', 'x'], ['count', 3], ['labels[]', 'a'], ['labels[]', 'b'], ['author[name]', 'n'], ['author[email]', 'e'],
      ['actions[][action]', 'create'], ['actions[][file_path]', 'a.txt'], ['actions[][action]', 'delete'], ['actions[][file_path]', 'b.txt'],
    ])).toEqual({
      name: 'x', count: 3, labels: ['a', 'b'], author: { name: 'n', email: 'e' },
      actions: [{ action: 'create', file_path: 'a.txt' }, { action: 'delete', file_path: 'b.txt' }],
    })
  })
})
