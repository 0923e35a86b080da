# bash completion for mstlab; `make install` puts it in
# PREFIX/share/bash-completion/completions/mstlab.
#
# Completes the commands, each command's options (the lists below:
# tests/install/completion holds them to `mstlab COMMAND --help`), option
# values, topology files (*.yaml), and from the topology on the line,
# read by the mstlab being completed (`mstlab plan TOPO`, `mstlab check
# TOPO`): node names, link ends NODE:PORT and scenario names. Nothing
# typed on the line is ever evaluated: it is passed to mstlab as an
# argument.

_mstlab_commands='check graph plan up down run list kernels hosts status exec shell console link watch serve decode verdict templates agent'
_mstlab_lab_options='--results --uri --virt --kernel --debug-kernel --initrd'

# _mstlab_options COMMAND: the options it takes (--help aside).
_mstlab_options() {
	case $1 in
	graph) echo '-o' ;;
	plan) echo '--json --xml --user-data --meta-data --mstd-conf --virt --run --kernel --debug-kernel --initrd' ;;
	down | shell | console | link | templates) echo "$_mstlab_lab_options" ;;
	up) echo "--boot $_mstlab_lab_options" ;;
	exec) echo "-n --no-stdin --timeout $_mstlab_lab_options" ;;
	run) echo "-s --scenario --keep --boot $_mstlab_lab_options" ;;
	status) echo "--json $_mstlab_lab_options" ;;
	list | kernels) echo '--json -j' ;;
	hosts) echo '--uri --json -j' ;;
	watch) echo '--json -j --count --for --replay --follow' ;;
	serve) echo '--listen --token-file --no-auth --read-only --uri' ;;
	decode) echo '--json -j' ;;
	agent) echo '--results' ;;
	esac
}

# _mstlab_takes_value OPTION: whether the next word is OPTION's value.
_mstlab_takes_value() {
	case $1 in
	-o | -s | --scenario | --results | --uri | --virt | --kernel | \
		--debug-kernel | --initrd | --xml | --user-data | --meta-data | \
		--mstd-conf | --run | --count | --for | --timeout | --listen | \
		--token-file | --boot) return 0 ;;
	esac
	return 1
}

# _mstlab_reply COMPGEN-ARGS...: adds what compgen offers for $cur, one
# word a line (a folder's name may hold spaces).
_mstlab_reply() {
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen "$@" -- "$cur")
}

# _mstlab_files EXT...: folders, and files ending in .EXT (any file with
# no EXT), matching $cur.
_mstlab_files() {
	local ext
	compopt -o filenames 2>/dev/null
	_mstlab_reply -d
	(($# == 0)) && _mstlab_reply -f
	for ext in "$@"; do
		_mstlab_reply -f -X "!*.$ext"
	done
}

# _mstlab_plan_words PROG TOPO nodes|ends|scenarios|hosts: read from the
# topology by the mstlab being completed; nothing when it does not parse.
_mstlab_plan_words() {
	local prog=$1 topo=$2 what=$3 kind name rest node=
	# shellcheck disable=SC2088 # a literal ~/ typed on the line
	[[ $topo == '~/'* ]] && topo=$HOME/${topo#'~/'}
	[[ -f $topo ]] || return 0
	if [[ $what == scenarios ]]; then
		"$prog" check "$topo" 2>/dev/null |
			sed -n 's/^  scenario \([^:]*\):.*/\1/p'
		return 0
	fi
	if [[ $what == hosts ]]; then
		"$prog" check "$topo" 2>/dev/null |
			sed -n 's/^  [0-9]* hosts: \([^;]*\).*/\1/p' |
			tr ',' '\n' | sed -n 's/^ *\([^ ]*\) (.*/\1/p'
		return 0
	fi
	"$prog" plan "$topo" 2>/dev/null | while read -r kind name rest; do
		case $kind in
		node)
			node=$name
			[[ $what == nodes ]] && echo "$name"
			;;
		port) [[ $what == ends && -n $node ]] && echo "$node:$name" ;;
		esac
	done
}

# _mstlab_words_to WORDS: COMP_WORDS up to COMP_CWORD with the pieces bash
# splits at ':' (COMP_WORDBREAKS) joined again, into the array named
# WORDS; the last one is the word being completed.
_mstlab_words_to() {
	local -n _out=$1
	local i w
	_out=()
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $COMP_WORDBREAKS == *:* ]] &&
			[[ $w == : || ${COMP_WORDS[i - 1]} == : ]]; then
			_out[${#_out[@]} - 1]+=$w
		else
			_out+=("$w")
		fi
	done
}

_mstlab() {
	local words cur prev prog cmd='' topo='' i w nargs=0 pos=()
	COMPREPLY=()
	_mstlab_words_to words
	cur=${words[-1]}
	prev=
	((${#words[@]} > 1)) && prev=${words[-2]}
	prog=${words[0]}
	# shellcheck disable=SC2088 # a literal ~/ typed on the line
	[[ $prog == '~/'* ]] && prog=$HOME/${prog#'~/'}

	# The command, and the positional words before the one completed.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		w=${words[i]}
		if [[ -z $cmd ]]; then
			[[ $w != -* ]] && cmd=$w
			continue
		fi
		if ((${#pos[@]} >= 2)) && [[ $cmd == exec ]]; then
			pos+=("$w") # the guest command's own words
		elif [[ $w == -* ]]; then
			_mstlab_takes_value "$w" && ((i++))
		else
			pos+=("$w")
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_mstlab_reply -W '--help --version'
		else
			_mstlab_reply -W "$_mstlab_commands"
		fi
		return 0
	fi
	topo=${pos[0]:-}
	nargs=${#pos[@]}

	# The value of an option.
	if [[ $prev == -* && ! ($cmd == exec && nargs -ge 2) ]] &&
		_mstlab_takes_value "$prev"; then
		case $prev in
		--virt)
			if [[ $cmd == plan ]]; then
				_mstlab_reply -W 'qemu kvm'
			else
				_mstlab_reply -W 'auto qemu kvm'
			fi
			;;
		--boot) _mstlab_reply -W 'cold template' ;;
		--results | --run) compopt -o filenames 2>/dev/null
			_mstlab_reply -d ;;
		--kernel)
			_mstlab_reply -W 'default debug 6.12 6.12-debug'
			_mstlab_files ;;
		--debug-kernel | --initrd | -o | --token-file) _mstlab_files ;;
		--listen) _mstlab_reply -W '127.0.0.1:8470 0.0.0.0:8470 127.0.0.1:0' ;;
		--xml | --user-data | --meta-data | --mstd-conf)
			_mstlab_reply -W "$(_mstlab_plan_words "$prog" "$topo" nodes)" ;;
		-s | --scenario)
			_mstlab_reply -W "$(_mstlab_plan_words "$prog" "$topo" scenarios)" ;;
		esac
		return 0
	fi
	if [[ $cur == -* && ! ($cmd == exec && nargs -ge 2) ]]; then
		_mstlab_reply -W "$(_mstlab_options "$cmd") --help"
		return 0
	fi

	case $cmd:$nargs in
	decode:0) _mstlab_files pcap ;;
	verdict:0) compopt -o filenames 2>/dev/null
		_mstlab_reply -d ;;
	serve:0) _mstlab_files yaml yml ;;
	check:0 | graph:0 | plan:0 | up:0 | down:0 | run:0 | status:0 | \
		exec:0 | shell:0 | console:0 | link:0 | watch:0) _mstlab_files yaml yml ;;
	exec:1 | shell:1 | console:1)
		_mstlab_reply -W "$(_mstlab_plan_words "$prog" "$topo" nodes)" ;;
	link:1)
		_mstlab_reply -W "$(_mstlab_plan_words "$prog" "$topo" ends)"
		# bash completes the part after the last ':' of the word
		if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
			local colon=${cur%"${cur##*:}"}
			for i in "${!COMPREPLY[@]}"; do
				COMPREPLY[i]=${COMPREPLY[i]#"$colon"}
			done
		fi
		;;
	link:2) _mstlab_reply -W 'fail restore' ;;
	templates:0) _mstlab_reply -W 'list build clear' ;;
	hosts:0) _mstlab_reply -W 'check' ;;
	hosts:1) [[ $topo == check ]] && _mstlab_files yaml yml ;;
	hosts:*) [[ $topo == check ]] &&
		_mstlab_reply -W "$(_mstlab_plan_words "$prog" "${pos[1]}" hosts)" ;;
	templates:1) [[ $topo == build ]] && _mstlab_files yaml yml ;;
	link:3) _mstlab_reply -W 'carrier silent deaf' ;;
	esac
	return 0
}
complete -F _mstlab mstlab
