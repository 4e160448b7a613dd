// collab completion bash|zsh|fish: thin scripts that ask `collab __complete` for candidates (committed in completions/).
import { Argument, type Command } from 'commander'
import type { Runtime } from '../src/cli/command.js'
import type { Deps } from '../src/cli/factory.js'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

export interface CompletionOptions {
  shell: Shell
}

const BASH = `# bash completion for collab
# Install: collab completion bash > ~/.local/share/bash-completion/completions/collab

_collab() {
  local name rest
  COMPREPLY=()
  while IFS=$'\\t' read -r name rest; do
    [[ -n $name ]] && COMPREPLY+=("$name")
  done < <(collab __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}

complete -o default -F _collab collab
`

const ZSH = `#compdef collab
# zsh completion for collab
# Install: collab completion zsh > "\${fpath[1]}/_collab"

_collab() {
  local -a candidates
  local line
  for line in "\${(@f)$(collab __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
  done
  if (( \${#candidates} )); then
    _describe -t collab collab candidates
  else
    _files
  fi
}

if [[ $funcstack[1] == _collab ]]; then
  _collab "$@"
else
  compdef _collab collab
fi
`

const FISH = `# fish completion for collab
# Install: collab completion fish > ~/.config/fish/completions/collab.fish

function __collab_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l current (commandline -ct)
    collab __complete $tokens "$current" 2>/dev/null
end

complete -c collab -f -a '(__collab_complete)'
`

export const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH }

export function register(command: Command, rt: Runtime): void {
  command
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action((shell: Shell) => rt.invoke(command, run, { shell }))
}

export async function run(options: CompletionOptions, deps: Deps): Promise<void> {
  deps.io.stdout.write(SCRIPTS[options.shell])
}
