// rules:if expressions on their own: syntax accepted and refused, and what each form evaluates to.
import { describe, expect, it } from 'vitest'
import { evaluateExpression, parseExpression } from '../../../../src/server/ci/expressions.js'

const vars = {
  BRANCH: 'main', EMPTY: '', FEATURE: 'feature/login', PATTERN: '/^feat/', BAD_PATTERN: 'not-a-pattern', UPPER: 'MAIN',
}

describe('evaluateExpression', () => {
  it.each([
    ['$BRANCH', true],
    ['$EMPTY', false],
    ['$UNSET', false],
    ['$BRANCH == "main"', true],
    ["$BRANCH == 'main'", true],
    ['$BRANCH != "main"', false],
    ['"main" == $BRANCH', true],
    ['$UNSET == null', true],
    ['$EMPTY == null', false],
    ['$EMPTY == ""', true],
    ['$BRANCH != null', true],
    ['$BRANCH == $BRANCH', true],
    ['$FEATURE =~ /^feature\\//', true],
    ['$FEATURE =~ /^FEATURE/i', true],
    ['$FEATURE =~ /^FEATURE/', false],
    ['$FEATURE !~ /^feature/', false],
    ['$BRANCH !~ /^feature/', true],
    ['$UNSET =~ /^$/', true],
    ['$FEATURE =~ $PATTERN', true],
    ['$BRANCH =~ $PATTERN', false],
    ['$BRANCH =~ $BAD_PATTERN', false],
    ['$BRANCH !~ $BAD_PATTERN', true],
    ['$BRANCH == "main" && $EMPTY', false],
    ['$BRANCH == "main" || $EMPTY', true],
    ['$EMPTY || $UNSET || $BRANCH == "main"', true],
    // && binds tighter: true || (false && false)
    ['$BRANCH || $EMPTY && $UNSET', true],
    ['($BRANCH || $EMPTY) && $UNSET', false],
    ['(($BRANCH == "main"))', true],
    ['$UPPER =~ /main/i && ($FEATURE =~ /login$/ || $UNSET)', true],
    ['"literal $BRANCH" == "literal $BRANCH"', true],
  ])('%s is %s', (text, expected) => {
    expect(evaluateExpression(text, vars)).toBe(expected)
  })
})

describe('catastrophic patterns', () => {
  it('answers a pattern that would backtrack for ever correctly: RE2 cannot backtrack', () => {
    const MESSAGE = `${'a'.repeat(40)}b`
    expect(evaluateExpression('$MESSAGE =~ /^(a+)+$/', { MESSAGE })).toBe(false)
    expect(evaluateExpression('$MESSAGE !~ /^(a+)+$/', { MESSAGE })).toBe(true)
    expect(evaluateExpression('$MESSAGE =~ /^(a+)+$/', { MESSAGE: 'aaaa' })).toBe(true)
    // The match lies past the part that backtracks: a time limit counted it as none.
    expect(evaluateExpression('$MESSAGE =~ /^(a+)+$|b$/', { MESSAGE })).toBe(true)
  })

  it('reads RE2 syntax and flags, and refuses what RE2 cannot run', () => {
    expect(evaluateExpression('$B =~ /(?i)^MAIN$/', { B: 'main' })).toBe(true)
    expect(evaluateExpression('$B =~ /^a.b$/s', { B: 'a\nb' })).toBe(true)
    expect(evaluateExpression('$B =~ /^b$/m', { B: 'a\nb' })).toBe(true)
    expect(evaluateExpression('$B =~ /^b$/', { B: 'a\nb' })).toBe(false)
    expect(evaluateExpression('$B =~ /[[:digit:]]+/', { B: 'v12' })).toBe(true)
    for (const text of ['$B =~ /(?=a)/', '$B =~ /(a)\\1/', '$B =~ /a{1001}/']) expect(parseExpression(text)).toBeNull()
  })
})

describe('parseExpression', () => {
  it.each([
    '', '   ', '$', 'BRANCH == "main"', '$A ==', '== $A', '$A = "b"', '$A == "b" &&', '($A == "b"', '$A == "b")',
    '$A =~ "main"', '$A =~ /[/', '$A == "b" $B', '"unterminated', '$A & $B', '$A | $B', '!$A', '$A == /re/ == $B',
  ])('refuses %j', (text) => {
    expect(parseExpression(text)).toBeNull()
    expect(evaluateExpression(text, vars)).toBe(false)
  })

  it('refuses parentheses nested past the stack instead of throwing', () => {
    expect(parseExpression(`${'('.repeat(100_000)}$A${')'.repeat(100_000)}`)).toBeNull()
  })

  it('reads only the $VAR form of a variable, as GitLab\'s lexer: ${VAR} is a syntax error', () => {
    for (const text of ['${BRANCH}', '${BRANCH} == "main"']) expect(parseExpression(text)).toBeNull()
    expect(evaluateExpression('$BRANCH == "${BRANCH}"', vars)).toBe(false)
  })

  it('never throws on any input', () => {
    for (const text of ['(((((', ')))', '/', '//', '$A =~ //', '$A =~ /\\/', '\u0000', '${}', '${A']) {
      expect(() => parseExpression(text)).not.toThrow()
    }
  })

  it('builds the tree with && under ||', () => {
    expect(parseExpression('$A || $B && $C == "x"')).toEqual({
      t: 'or',
      left: { t: 'var', name: 'A' },
      right: { t: 'and', left: { t: 'var', name: 'B' }, right: { t: 'cmp', op: '==', left: { t: 'var', name: 'C' }, right: { t: 'str', value: 'x' } } },
    })
  })
})
