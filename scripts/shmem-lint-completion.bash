# bash completion for shmem-lint (installed as
# share/bash-completion/completions/shmem-lint). The options and checks come
# from the installed command itself (--help, --list-checks), so they are
# never out of date.

_shmem_lint_options() {
  # The option column of --help: lines starting "  -", up to the two spaces
  # before the description ("-j N, --jobs=N", "--color / --no-color").
  "$1" --help 2>/dev/null | awk '/^  -/ {
      col = $0; sub(/^  /, "", col); sub(/  .*/, "", col)
      n = split(col, w, /[ ,\/]+/)
      for (i = 1; i <= n; i++) if (w[i] ~ /^-/) { o = w[i]; sub(/=.*/, "=", o); print o }
    }' | sort -u
}

_shmem_lint() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[0]}
  case "$cur" in
  --checks=* | --warnings-as-errors=*)
    local opt=${cur%%=*} list=${cur#*=} prefix= last
    # Complete the last entry of a comma-separated list.
    [[ $list == *,* ]] && prefix=${list%,*},
    last=${list##*,}
    local neg=
    [[ $last == -* ]] && neg=- last=${last#-}
    local checks
    checks=$("$cmd" --list-checks 2>/dev/null | awk '{print $1}')
    COMPREPLY=($(compgen -P "$opt=$prefix$neg" -W "$checks shmem-*" -- "$last"))
    compopt -o nospace 2>/dev/null
    return
    ;;
  --format=*)
    COMPREPLY=($(compgen -P "--format=" -W "text sarif github gitlab json html" -- "${cur#*=}"))
    return
    ;;
  --cuda-path=*)
    COMPREPLY=($(compgen -P "--cuda-path=" -W "auto none" -- "${cur#*=}"))
    return
    ;;
  -*)
    COMPREPLY=($(compgen -W "$(_shmem_lint_options "$cmd")" -- "$cur"))
    [[ ${COMPREPLY[0]:-} == *= ]] && compopt -o nospace 2>/dev/null
    return
    ;;
  esac
  # Files: CUDA sources and directories.
  COMPREPLY=($(compgen -f -X '!*.@(cu|cuh)' -- "$cur") $(compgen -d -- "$cur"))
}

complete -F _shmem_lint shmem-lint
