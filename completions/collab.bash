# bash completion for collab
# Install: collab completion bash > ~/.local/share/bash-completion/completions/collab

_collab() {
  local name rest
  COMPREPLY=()
  while IFS=$'\t' read -r name rest; do
    [[ -n $name ]] && COMPREPLY+=("$name")
  done < <(collab __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}

complete -o default -F _collab collab
