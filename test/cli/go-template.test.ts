// The Go-template subset of --template, rendered over JSON as gh's documentation uses it.
import { describe, expect, it } from 'vitest'
import { printf, renderTemplate } from '../../src/cli/go-template.js'

const issues = [
  { iid: 2, title: 'Second', labels: ['bug', 'ui'], author: { username: 'alice' }, created_at: '2024-01-01T03:04:05Z', milestone: null },
  { iid: 1, title: 'First', labels: [], author: { username: 'bob' }, created_at: '2023-12-02T03:04:05Z', milestone: { title: 'v1' } },
]
const piped = (template: string, data: unknown = issues) => renderTemplate(template, data, { aligned: false })

describe('--template', () => {
  it('prints fields, nested fields and literals, and ranges over a list', () => {
    expect(piped('{{range .}}#{{.iid}} {{.title}} by {{.author.username}}{{"\\n"}}{{end}}')).toBe('#2 Second by alice\n#1 First by bob\n')
    expect(piped('{{.title}}', issues[0])).toBe('Second')
    expect(piped('{{range $i, $e := .}}{{$i}}={{$e.iid}},{{end}}')).toBe('0=2,1=1,')
    expect(piped('{{range .items}}{{$.name}}:{{.}} {{end}}', { name: 'x', items: [1, 2] })).toBe('x:1 x:2 ')
  })

  it('trims around {{- and -}}, and skips comments', () => {
    expect(piped('{{range .}}\n  {{- .iid -}}\n,{{end}}{{/* nothing */}}')).toBe('2,1,')
  })

  it('branches with if / else if / else, with, and the comparison functions', () => {
    const t = '{{range .}}{{if eq .iid 2}}two{{else if .milestone}}{{.milestone.title}}{{else}}none{{end}};{{end}}'
    expect(piped(t)).toBe('two;v1;')
    expect(piped('{{with .milestone}}{{.title}}{{else}}-{{end}}', issues[1])).toBe('v1')
    expect(piped('{{with .milestone}}{{.title}}{{else}}-{{end}}', issues[0])).toBe('-')
    expect(piped('{{if and (gt .iid 1) (not .milestone)}}yes{{end}}', issues[0])).toBe('yes')
    expect(piped('{{range .labels}}{{.}}{{else}}no labels{{end}}', issues[1])).toBe('no labels')
  })

  it('pipes values into functions: printf, join, len, pluck, truncate, upper', () => {
    expect(piped('{{printf "%-8s|%3d|%q" .title .iid .author.username}}', issues[0])).toBe('Second  |  2|"alice"')
    expect(piped('{{join ", " .labels}} ({{len .labels}})', issues[0])).toBe('bug, ui (2)')
    expect(piped('{{pluck "iid" . | join "-"}}')).toBe('2-1')
    expect(piped('{{.title | truncate 5}} {{.title | upper}}', issues[0])).toBe('Se... SECOND')
    expect(printf('%05.1f%% %x %t %v', 3.14159, 255, true, { a: 1 })).toBe('003.1% ff true {"a":1}')
  })

  it('draws tablerow rows as aligned columns on a terminal and tab-separated when piped', () => {
    const t = '{{range .}}{{tablerow (printf "#%d" .iid) .title .author.username}}{{end}}'
    expect(piped(t)).toBe('#2\tSecond\talice\n#1\tFirst\tbob\n')
    expect(renderTemplate(t, issues, { aligned: true })).toBe('#2  Second  alice\n#1  First   bob\n')
    expect(piped(`${t}{{tablerender}}after`)).toBe('#2\tSecond\talice\n#1\tFirst\tbob\nafter')
  })

  it('formats times: timeago against the clock, timefmt with a Go layout', () => {
    const now = () => Date.parse('2024-01-03T03:04:05Z')
    expect(renderTemplate('{{timeago .created_at}}', issues[0], { aligned: false, now })).toBe('about 2 days ago')
    expect(piped('{{timefmt "2006-01-02 15:04" .created_at}}', issues[0])).toBe('2024-01-01 03:04')
  })

  it('refuses a malformed template, naming the problem', () => {
    expect(() => piped('{{range .}}x')).toThrow('template: missing {{end}} of {{range}}')
    expect(() => piped('{{.title')).toThrow('template: unclosed action')
    expect(() => piped('{{nosuch .title}}')).toThrow('template: function "nosuch" not defined')
    expect(() => piped('{{end}}')).toThrow('template: unexpected {{end}}')
  })
})
