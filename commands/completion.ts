// collab completion bash|zsh|fish: thin scripts that ask `collab __complete` for candidates (committed in completions/).
import { Argument, type Command } from 'commander'
import type { Runtime } from '../src/cli/command.js'
import type { Deps } from '../src/cli/factory.js'

export const summary = 'Print a shell completion script (bash, zsh or fish)'

export const SHELLS = ['bash', 'zsh', 'fish'] as const
export type Shell = (typeof SHELLS)[number]

export interface CompletionOptions {
  shell: Shell
}

const BASH = `# bash completion for collab
# Install: collab completion bash > ~/.local/share/bash-completion/completions/collab

_collab() {
  # The words as typed, not COMP_WORDS: bash splits those at '=' and ':' (--state=opened, projects/:id/issues).
  local line=\${COMP_LINE:0:COMP_POINT} name rest cur prefix=
  local -a words
  read -ra words <<< "$line"
  [[ -z $line || $line == *[[:space:]] ]] && words+=("")
  cur=\${words[\${#words[@]}-1]}
  # bash replaces only the text after the last '=' or ':' of the word: the candidates lose what precedes it.
  [[ $cur == *[=:]* ]] && prefix=\${cur%"\${cur##*[=:]}"}
  COMPREPLY=()
  while IFS=$'\\t' read -r name rest; do
    [[ -n $name ]] && COMPREPLY+=("\${name#"$prefix"}")
  done < <(collab __complete "\${words[@]:1}" 2>/dev/null)
}

# -o default: with no candidates (a file flag such as -F, or the server down), bash offers file names.
complete -o default -F _collab collab
`

const ZSH = `#compdef collab
# zsh completion for collab
# Install: collab completion zsh > "\${fpath[1]}/_collab"

_collab() {
  local -a candidates
  local line value description
  for line in "\${(@f)$(collab __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    value=\${\${line%%$'\\t'*}//:/\\\\:}
    description=\${line#*$'\\t'}
    # An empty description would show as a stray '--' in the list.
    if [[ -n $description ]]; then candidates+=("$value:$description"); else candidates+=("$value"); fi
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
    set -l candidates (collab __complete $tokens "$current" 2>/dev/null)
    if test (count $candidates) -gt 0
        printf '%s\\n' $candidates
    else
        # No candidates (a file flag such as -F, or the server down): file names, as fish offers by default.
        __fish_complete_path "$current"
    end
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
