# bash completion for collab
# Install: collab completion bash > ~/.local/share/bash-completion/completions/collab

_collab() {
  # The words as typed, not COMP_WORDS: bash splits those at '=' and ':' (--state=opened, projects/:id/issues).
  local line=${COMP_LINE:0:COMP_POINT} name rest cur prefix=
  local -a words
  read -ra words <<< "$line"
  [[ -z $line || $line == *[[:space:]] ]] && words+=("")
  cur=${words[${#words[@]}-1]}
  # bash replaces only the text after the last '=' or ':' of the word: the candidates lose what precedes it.
  [[ $cur == *[=:]* ]] && prefix=${cur%"${cur##*[=:]}"}
  COMPREPLY=()
  while IFS=$'\t' read -r name rest; do
    [[ -n $name ]] && COMPREPLY+=("${name#"$prefix"}")
  done < <(collab __complete "${words[@]:1}" 2>/dev/null)
}

# -o default: with no candidates (a file flag such as -F, or the server down), bash offers file names.
complete -o default -F _collab collab
