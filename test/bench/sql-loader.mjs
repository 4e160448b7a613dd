// Lets a bench helper run from TypeScript sources under tsx: `.sql` migrations load as text, as the build bundles them.
import { register } from 'node:module'

register('data:text/javascript,' + encodeURIComponent(`
  import { readFile } from 'node:fs/promises'
  export async function load(url, context, next) {
    if (!url.endsWith('.sql')) return next(url, context)
    const text = await readFile(new URL(url), 'utf8')
    return { format: 'module', shortCircuit: true, source: 'export default ' + JSON.stringify(text) }
  }
`))
