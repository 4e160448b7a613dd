// `--jq EXPR` and `--template TPL` (gh's): the command runs with its stdout captured, and the JSON it printed goes
// through jq (jq-wasm: jq 1.8 compiled to WebAssembly, loaded only here) or the Go-like template instead.
import { failure, usageError } from './errors.js'
import { plainStyle, type IO } from './io.js'

export interface JsonFilter { jq?: string; template?: string }

/** Runs `work` with an IO whose stdout is kept; prints the filtered JSON and answers the command's exit code. */
export async function withJsonFilter(io: IO, filter: JsonFilter, work: (io: IO) => Promise<number>): Promise<number> {
  if (filter.jq !== undefined && filter.template !== undefined) throw usageError('--jq and --template cannot be used together')
  let captured = ''
  const decoder = new TextDecoder()
  const quiet: IO = {
    ...io,
    stdout: { write: (text) => void (captured += typeof text === 'string' ? text : decoder.decode(text, { stream: true })) },
    stdoutIsTTY: false,
    colorLevel: 0,
    color: plainStyle,
  }
  const code = await work(quiet)
  if (captured.trim() === '') return code
  io.stdout.write(filter.jq !== undefined ? await jq(captured, filter.jq, io.stdoutIsTTY) : await template(io, captured, filter.template!))
  return code
}

/** Strings come out raw, as gh's --jq (jq -r) prints them; other values indented on a terminal, one per line when piped. */
async function jq(json: string, expression: string, terminal: boolean): Promise<string> {
  const { raw } = await import('jq-wasm')
  const result = await raw(json, expression, terminal ? ['-r'] : ['-r', '-c'])
  if (result.exitCode !== 0) throw failure(`jq: ${result.stderr.replace(/^jq: (error: )?/, '').trim()}`)
  return result.stdout === '' ? '' : `${result.stdout.replace(/\n$/, '')}\n`
}

async function template(io: IO, json: string, source: string): Promise<string> {
  const { renderTemplate } = await import('./go-template.js')
  let data: unknown
  try {
    data = JSON.parse(json)
  } catch {
    throw failure('--template: the command printed no JSON')
  }
  return renderTemplate(source, data, { now: io.now, aligned: io.stdoutIsTTY })
}
