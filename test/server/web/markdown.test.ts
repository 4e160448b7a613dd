// The shared markdown renderer: GitLab references, task lists, raw HTML as text, unsafe links refused.
import { afterAll, describe, expect, it } from 'vitest'
import { renderMarkdown as render, type ReferenceBase } from '../../../src/server/services/markup/markdown.js'
import { closeDatabase, openDatabase } from '../../../src/server/store/db.js'

// Its kept renders live in the database: a fresh one in memory.
const app = { db: openDatabase(':memory:') }
afterAll(() => closeDatabase(app.db))
const renderMarkdown = (source: string, base?: ReferenceBase) => render(app, source, base)

const base = { baseUrl: 'http://h', projectPath: 'g/p' }

describe('renderMarkdown', () => {
  it('links #issues, !merge requests and @users, not inside code or links, not mid-word', async () => {
    expect(await renderMarkdown('Fix #12, !3 (by @al.ice). a#1 `#4` [#5](http://x)', base)).toBe(
      '<p>Fix <a href="http://h/g/p/-/issues/12" class="gfm-reference">#12</a>, <a href="http://h/g/p/-/merge_requests/3" class="gfm-reference">!3</a>'
      + ' (by <a href="http://h/al.ice" class="gfm-reference">@al.ice</a>). a#1 <code>#4</code> <a href="http://x">#5</a></p>\n')
  })

  it('keeps the project of each render apart (the cache is keyed by it)', async () => {
    expect(await renderMarkdown('#1', { baseUrl: 'http://h', projectPath: 'a/b' })).toContain('href="http://h/a/b/-/issues/1"')
    expect(await renderMarkdown('#1', { baseUrl: 'http://h', projectPath: 'c/d' })).toContain('href="http://h/c/d/-/issues/1"')
    expect(await renderMarkdown('#1')).toBe('<p>#1</p>\n')
  })

  it('renders task lists and tables, raw HTML as text, and no javascript: link', async () => {
    expect(await renderMarkdown('- [ ] a\n- [x] b <script>x</script>\n\n|a|\n|-|\n|<b>1</b>|\n\n[c](javascript:alert(1))')).toBe([
      '<ul>',
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled> a</li>',
      '<li class="task-list-item"><input type="checkbox" class="task-list-item-checkbox" disabled checked> b &lt;script&gt;x&lt;/script&gt;</li>',
      '</ul>',
      '<table>', '<thead>', '<tr>', '<th>a</th>', '</tr>', '</thead>', '<tbody>', '<tr>', '<td>&lt;b&gt;1&lt;/b&gt;</td>', '</tr>', '</tbody>', '</table>',
      '<p>[c](javascript:alert(1))</p>', '',
    ].join('\n'))
  })
})
