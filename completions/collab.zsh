#compdef collab
# zsh completion for collab
# Install: collab completion zsh > "${fpath[1]}/_collab"

_collab() {
  local -a candidates
  local line
  for line in "${(@f)$(collab __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    candidates+=("${${line%%$'\t'*}//:/\\:}:${line#*$'\t'}")
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
