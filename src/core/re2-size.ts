// How large a program a pattern compiles to, estimated from its text before compiling: counted repeats multiply
// what they repeat (`a{1000}` is a thousand instructions from seven characters), so a short pattern could take
// seconds and megabytes to compile. RE2 refuses such a pattern ("pattern too large - compile failed"); the estimate
// lets us refuse it without paying for the compile. It leans high: classes, escapes and groups count one each.

const COUNTED = /^\{(\d+)(?:(,)(\d*))?\}/

/** The length of an escape at `i` (`\d`, `\x{263a}`, `\p{Greek}`, `\pL`), in characters. */
function escapeLength(text: string, i: number): number {
  const next = text[i + 1]
  if ((next === 'p' || next === 'P' || next === 'x') && text[i + 2] === '{') {
    const end = text.indexOf('}', i + 3)
    return end < 0 ? text.length - i : end - i + 1
  }
  if (next === 'p' || next === 'P') return 3
  if (next === 'x') return 4
  return 2
}

/** The length of a class `[...]` at `i`: a `]` right after `[` or `[^` is a member, `[:alpha:]` and escapes inside. */
function classLength(text: string, i: number): number {
  let j = i + 1
  if (text[j] === '^') j++
  if (text[j] === ']') j++
  while (j < text.length && text[j] !== ']') {
    if (text[j] === '\\') j += escapeLength(text, j)
    else if (text.startsWith('[:', j)) j = Math.max(text.indexOf(':]', j + 2) + 2, j + 1)
    else j++
  }
  return j - i + 1
}

/** An upper estimate of the instructions `pattern` compiles to (RE2's `\Q…\E` literal text counts one per character). */
export function estimatedProgramSize(pattern: string): number {
  const stack: number[] = [0]
  let last = 0
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]
    const counted = c === '{' ? COUNTED.exec(pattern.slice(i, i + 24)) : null
    if (counted) {
      const times = counted[2] === undefined ? Number(counted[1]) : counted[3] ? Number(counted[3]) : Number(counted[1]) + 1
      stack[stack.length - 1] += last * (Math.max(times, 1) - 1) + 1
      last *= Math.max(times, 1)
      i += counted[0].length
      continue
    }
    if (c === '(') { stack.push(0); last = 0; i++; continue }
    if (c === ')' && stack.length > 1) {
      last = stack.pop()! + 2
      stack[stack.length - 1] += last
      i++
      continue
    }
    const length = c === '\\' ? escapeLength(pattern, i) : c === '[' ? classLength(pattern, i) : 1
    last = 1
    stack[stack.length - 1] += 1
    i += length
  }
  return stack.reduce((a, b) => a + b, 0)
}
