#compdef collab
# zsh completion for collab
# Install: collab completion zsh > "${fpath[1]}/_collab"

_collab() {
  local -a candidates
  local line value description
  for line in "${(@f)$(collab __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    value=${${line%%$'\t'*}//:/\\:}
    description=${line#*$'\t'}
    # An empty description would show as a stray '--' in the list.
    if [[ -n $description ]]; then candidates+=("$value:$description"); else candidates+=("$value"); fi
  done
  if (( ${#candidates} )); then
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
