#!/usr/bin/env bash
# bench/ keeps the shape bench/README.md describes: every .c/.h lives in a
# room, a room includes only lower rooms (or itself), files are split by
# concept (each .c opens with a comment saying what it holds, and none grows
# past 1000 lines, where one file surely holds two), and no two files of a
# room call each other (a circle). The room
# ranks below are the table in bench/README.md.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
declare -A rank=([lib]=0 [stats]=1 [modes]=1 [counters]=1 [profile]=1 [config]=2 [metrics]=2
	[transport]=3 [wire]=3 [results]=4 [report]=5 [rr]=5 [probe]=5 [export]=6 [peers]=6 [role]=7
	[compare]=7 [plot]=8 [run]=8 [guest]=9)
MAX_LINES=1000

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
		[ "$n" -le "$MAX_LINES" ] || bad "$f: $n lines (at most $MAX_LINES: it holds more than one concept)"
		# Line 1 the licence, then the comment that names the file's concept
		# (or its own header's, the same name with .h, opens with it).
		{ sed -n 2p "$f"; sed -n 2,3p "${f%.c}.h" 2>/dev/null; } | grep -q '^/\*' ||
			bad "$f: no comment after the licence line (nor in ${f%.c}.h) saying what it holds" ;;
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
# ---- circles inside a room (issue 24) ----
# File A calls a function B defines, and B uses anything A defines (a
# function or data): the two cannot be read, tested or changed one without
# the other; what both need belongs in a lower file of the room. Two files
# that only name each other's data (a list and the entries it lists) are no
# circle. Read from the objects with nm: what each defines (T: a function,
# else data) and what it leaves undefined.
# circles OBJ...: one line "a.c <-> b.c: a.c calls f(), b.c uses x" a circle.
circles() {
	local o
	for o in "$@"; do
		nm -P -g "$o" | awk -v f="${o##*/}" '$2 == "U" { print "U", f, $1; next }
			{ print ($2 ~ /^[Tt]$/ ? "F" : "D"), f, $1 }'
	done | awk '
		$1 != "U" { def[$3] = $2; kind[$3] = $1; next }
		{ user[++n] = $2; sym[n] = $3 }
		END {
			for (i = 1; i <= n; i++) {
				s = sym[i]; a = user[i]; b = def[s]
				if (b == "" || b == a)
					continue
				if (!((a, b) in any))
					any[a, b] = s
				if (kind[s] == "F" && !((a, b) in call))
					call[a, b] = s
			}
			for (k in call) {
				split(k, p, SUBSEP); a = p[1]; b = p[2]
				# once a pair: from the smaller name when both call
				if (!((b, a) in any) || (((b, a) in call) && b < a))
					continue
				print a " <-> " b ": " a " calls " call[a, b] "(), " b " uses " any[b, a]
			}
		}' | sed 's/\.o\b/.c/g' | sort
}

# The check itself, on tiny files: a call one way and any use back is a
# circle, calls both ways too; data named both ways, or a call one way, not.
selftest=$TMP/circles
mkdir -p "$selftest"
cat >"$selftest/a.c" <<'C'
int b_fn(void); int a_data = 1; int a_fn(void) { return b_fn(); }
C
cat >"$selftest/b.c" <<'C'
extern int a_data; int b_fn(void) { return a_data; }
C
cat >"$selftest/c.c" <<'C'
extern int d_x; int c_x = 1; int *c_p = &d_x;
C
cat >"$selftest/d.c" <<'C'
extern int c_x; int d_x = 2; int *d_p = &c_x; int d_fn(void) { return 0; }
C
cat >"$selftest/e.c" <<'C'
int d_fn(void); int e_fn(void) { return d_fn(); }
C
cat >"$selftest/g.c" <<'C'
int h_fn(int); int g_fn(int x) { return x ? h_fn(x - 1) : 0; }
C
cat >"$selftest/h.c" <<'C'
int g_fn(int); int h_fn(int x) { return x ? g_fn(x - 1) : 1; }
C
for c in "$selftest"/*.c; do
	${CC:-cc} -c -o "${c%.c}.o" "$c" || fail "circle self-test: cannot compile $c"
done
want=$'a.c <-> b.c: a.c calls b_fn(), b.c uses a_data\ng.c <-> h.c: g.c calls h_fn(), h.c uses g_fn'
got=$(circles "$selftest"/*.o)
[ "$got" = "$want" ] || fail "circle self-test: found \"$got\", wanted \"$want\""
ok "the circle check finds a call answered by a use, and passes data named both ways"

# The room's objects as the Makefile builds them (every .c of the folder);
# make builds what is missing or stale (make check has built them already).
objs=()
for f in bench/*/*.c; do
	room=${f#bench/}; room=${room%%/*}
	[ -n "${rank[$room]+x}" ] && f=${f#bench/}; objs+=("build/obj/${f%.c}.o")
done
if ! log=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -j"$(nproc)" "${objs[@]}" 2>&1); then
	echo "$log" | tail -n 20
	fail "cannot build bench/'s objects for the circle check"
fi
ncircles=0
for r in "${!rank[@]}"; do
	room_objs=()
	for o in "${objs[@]}"; do
		[ "${o#build/obj/$r/}" != "$o" ] && room_objs+=("$o")
	done
	[ ${#room_objs[@]} -gt 1 ] || continue
	while read -r line; do
		[ -n "$line" ] || continue
		ncircles=$((ncircles + 1))
		bad "circle in $r/: $line (move what both need into a lower file of the room)"
	done < <(circles "${room_objs[@]}")
done
[ "$ncircles" -eq 0 ] && ok "no two files of a room call each other (${#objs[@]} objects)"
finish
