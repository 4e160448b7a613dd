// gh's `config` verbs take `-h` for the host, so their help flag is `--help` only.
import type { Command } from 'commander'

export const withHostKey = (command: Command) =>
  command.helpOption('--help', 'show help').option('-h, --host <url>', 'the value for one instance')
