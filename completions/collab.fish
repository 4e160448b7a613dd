# fish completion for collab
# Install: collab completion fish > ~/.config/fish/completions/collab.fish

function __collab_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l current (commandline -ct)
    collab __complete $tokens "$current" 2>/dev/null
end

complete -c collab -f -a '(__collab_complete)'
