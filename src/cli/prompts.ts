// Interactive questions through @inquirer/prompts, loaded only when a question is actually asked.
import { missingFlag } from './errors.js'
import type { IO } from './io.js'

export interface Prompter {
  /** Asks only when a person is at the terminal; otherwise fails naming the flag that would have answered. */
  input(message: string, flag: string, defaultValue?: string): Promise<string>
  password(message: string, flag: string): Promise<string>
  confirm(message: string, flag: string): Promise<boolean>
  select(message: string, flag: string, choices: string[]): Promise<string>
  /** Opens $VISUAL or $EDITOR on a temporary file and answers its text. */
  editor(message: string, flag: string): Promise<string>
}

export function inquirerPrompter(io: IO): Prompter {
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
    async editor(message, flag) {
      return (await prompts(flag)).editor({ message, waitForUserInput: false })
    },
  }
}
