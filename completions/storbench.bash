# bash completion for storbench (and storbench-mpi).
#
# Nothing here is a copy of the command table: the commands come from
# `storbench --help`, each command's options from `storbench COMMAND --help`
# (every option its text names), and test and suite names from
# `storbench list`, all asked of the binary being completed, so the completion
# cannot drift from the program. tests/cli/test_completion.sh checks it
# against src/main.c's table and the commands' option tables.
# Installed as /usr/share/bash-completion/completions/storbench.

_storbench_commands()
{
    "$1" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'
}

_storbench_options()
{
    # every --option the help text names (usage line, option lines, cross references),
    # and --help, which every command answers
    { "$1" "$2" --help 2>/dev/null | grep -oE -- '--[a-z]([a-z0-9_-]*[a-z0-9])?'; echo --help; } | sort -u
}

_storbench_names()
{
    "$1" list 2>/dev/null | awk '/^[a-z]/ { print $1 }'
}

_storbench()
{
    local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd=${COMP_WORDS[1]:-}
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_storbench_commands "$bin") --help --version" -- "$cur")
        return 0
    fi
    case "$prev" in
    -t | --target | --directory | --images | --results-dir)
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return 0
        ;;
    -o | --output | --filename | --devices | --destroy-data-on | --log | --vm-kernel | --jobfile)
        # run's -o is KEY=VALUE, not a file
        if [ "$cmd" != run ] && [ "$cmd" != scenario ] || [ "$prev" != -o ]; then
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return 0
        fi
        ;;
    -c | --chart)
        # plot's charts (report/svg_chart.c)
        if [ "$cmd" = plot ]; then
            mapfile -t COMPREPLY < <(compgen -W "bars lines heatmap" -- "$cur")
            return 0
        fi
        ;;
    --rw)
        # sweep's Types (workloads/fio.c); io's --rw takes more and falls through to files
        if [ "$cmd" = sweep ]; then
            mapfile -t COMPREPLY < <(compgen -W "read write randread randwrite rw randrw" -- "$cur")
            return 0
        fi
        ;;
    --ioengine)
        mapfile -t COMPREPLY < <(compgen -W "posixaio libaio io_uring sync psync pvsync mmap" -- "$cur")
        return 0
        ;;
    -f | --format | --output-format)
        mapfile -t COMPREPLY < <(compgen -W "text json md html csv pts-xml auto dd-wiki normal json+ terse storbench-json" -- "$cur")
        return 0
        ;;
    esac
    if [[ "$cur" == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_storbench_options "$bin" "$cmd")" -- "$cur")
        return 0
    fi
    case "$cmd" in
    run | list)
        mapfile -t COMPREPLY < <(compgen -W "$(_storbench_names "$bin")" -- "$cur")
        ;;
    scenario)
        if [ "$COMP_CWORD" -eq 2 ]; then
            mapfile -t COMPREPLY < <(compgen -W "run" -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        fi
        ;;
    *)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        ;;
    esac
    return 0
}

complete -F _storbench storbench storbench-mpi
