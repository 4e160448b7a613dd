// Interactive questions through @inquirer/prompts, loaded only when a question is actually asked.
import { failure, missingFlag } from './errors.js'
import type { IO } from './io.js'

export interface Prompter {
  /** Asks only when a person is at the terminal; otherwise fails naming the flag that would have answered. */
  input(message: string, flag: string, defaultValue?: string): Promise<string>
  password(message: string, flag: string): Promise<string>
  confirm(message: string, flag: string): Promise<boolean>
  select(message: string, flag: string, choices: string[]): Promise<string>
  /** Opens $VISUAL or $EDITOR on a temporary file holding `initial` and answers its text. */
  editor(message: string, flag: string, initial?: string): Promise<string>
}

/**
 * The editor as git picks one: collab's `editor` setting, else VISUAL, else EDITOR, else vi; run through the shell so
 * a setting such as `code --wait` works. The text is what the file holds when the editor exits 0.
 */
async function editText(io: IO, command: string, message: string, initial = ''): Promise<string> {
  const [{ spawn }, { promises: fs }, { tmpdir }, { join }] = await Promise.all([
    import('node:child_process'), import('node:fs'), import('node:os'), import('node:path'),
  ])
  const dir = await fs.mkdtemp(join(tmpdir(), 'collab-'))
  const file = join(dir, 'DESCRIPTION.md')
  try {
    await fs.writeFile(file, initial)
    io.stderr.write(`${message}: waiting for ${command}\n`)
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], { stdio: 'inherit', env: io.env as NodeJS.ProcessEnv })
      child.on('error', reject)
      child.on('exit', (exitCode) => resolve(exitCode))
    })
    if (code !== 0) throw failure(`the editor (${command}) exited with code ${code}; nothing was sent`)
    return await fs.readFile(file, 'utf8')
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}

/** `editor`: collab's editor setting, read only when an editor is about to open. */
export function inquirerPrompter(io: IO, editor: () => Promise<string | undefined> = async () => undefined): Prompter {
  const prompts = async (flag: string) => {
    if (!io.canPrompt) throw missingFlag(flag)
    return import('@inquirer/prompts')
  }
  return {
    async input(message, flag, defaultValue) {
      return (await prompts(flag)).input({ message, default: defaultValue, required: true })
    },
    async password(message, flag) {
      return (await prompts(flag)).password({ message, mask: '*' })
    },
    async confirm(message, flag) {
      return (await prompts(flag)).confirm({ message, default: false })
    },
    async select(message, flag, choices) {
      return (await prompts(flag)).select({ message, choices: choices.map((value) => ({ value })) })
    },
    async editor(message, flag, initial) {
      if (!io.canPrompt) throw missingFlag(flag)
      return editText(io, (await editor()) || io.env.VISUAL || io.env.EDITOR || 'vi', message, initial)
    },
  }
}

const EDIT = 'Edit it in the editor'
const SKIP = 'Skip it'
const SUBMIT = 'Submit'
const EDIT_AGAIN = 'Edit it again'
const CANCEL = 'Cancel'

/**
 * gh's way with a description on a terminal: edit it or skip it before any editor opens, then submit, edit again or
 * cancel (nothing is created). `message` is what the editor says it waits for; answers '' for nothing written.
 */
export async function composeText(prompter: Prompter, what: string, message: string, flag: string): Promise<string> {
  let text = ''
  let choice = await prompter.select(what, flag, [EDIT, SKIP])
  for (;;) {
    if (choice !== SKIP) text = await prompter.editor(message, flag, text)
    choice = await prompter.select("What's next?", flag, [SUBMIT, EDIT_AGAIN, CANCEL])
    if (choice === SUBMIT) return text
    if (choice === CANCEL) throw failure('cancelled: nothing was created')
  }
}
