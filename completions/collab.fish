# fish completion for collab
# Install: collab completion fish > ~/.config/fish/completions/collab.fish

function __collab_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l current (commandline -ct)
    set -l candidates (collab __complete $tokens "$current" 2>/dev/null)
    if test (count $candidates) -gt 0
        printf '%s\n' $candidates
    else
        # No candidates (a file flag such as -F, or the server down): file names, as fish offers by default.
        __fish_complete_path "$current"
    end
end

complete -c collab -f -a '(__collab_complete)'
