// The `--host` of the `config` verbs: a key's value for one instance. gh spells it `-h`, but here `-h` is help everywhere.
import type { Command } from 'commander'

export const withHostKey = (command: Command) => command.option('--host <url>', 'the value for one instance')
