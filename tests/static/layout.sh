#!/usr/bin/env bash
# bench/ keeps the shape bench/README.md describes: every .c/.h lives in a
# room, a room includes only lower rooms (or itself), and no .c file grows
# past 600 lines. The room ranks below are the table in bench/README.md.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
declare -A rank=([lib]=0 [modes]=1 [counters]=1 [peers]=1 [profile]=1 [config]=2 [metrics]=2 [transport]=3
	[results]=4 [output]=5 [probe]=5 [run]=6 [guest]=7)
MAX_LINES=600

for f in $(git ls-files 'bench/*.c' 'bench/*.h' 2>/dev/null || find bench -name '*.[ch]'); do
	case $f in
	bench/main.c | bench/commands.h | bench/counters/bpf/*) continue ;;
	esac
	room=${f#bench/}; room=${room%%/*}
	if [ -z "${rank[$room]+x}" ]; then
		bad "$f: not in a room of bench/README.md"
		continue
	fi
	while read -r inc; do
		to=${inc%%/*}
		[ "$to" = "$room" ] && continue
		if [ -z "${rank[$to]+x}" ]; then
			bad "$f includes \"$inc\": not a room"
		elif [ "${rank[$to]}" -ge "${rank[$room]}" ]; then
			bad "$f ($room, rank ${rank[$room]}) includes \"$inc\" ($to, rank ${rank[$to]}): only lower rooms"
		fi
	done < <(sed -n 's/^#include "\([a-z_]*\/[^"]*\)".*/\1/p' "$f")
	case $f in
	*.c)
		n=$(wc -l <"$f")
		[ "$n" -le "$MAX_LINES" ] || bad "$f: $n lines (at most $MAX_LINES: split it by job)" ;;
	esac
done
# Every room is described in bench/README.md, and only rooms are.
for r in "${!rank[@]}"; do
	grep -q "^| \`$r/\`" bench/README.md || bad "bench/README.md does not describe $r/"
	[ -d "bench/$r" ] || bad "bench/$r/ is in the rank table but does not exist"
done
for d in bench/*/; do
	d=${d#bench/}; d=${d%/}
	[ -n "${rank[$d]+x}" ] || bad "bench/$d/ is not in the rank table"
done
finish
