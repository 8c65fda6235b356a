#!/usr/bin/env bash
# Test runner (liburing's habit): every test is a program or script that
# exits 0 pass, 77 skip, anything else fail; each has a timeout. Integration
# scripts run twice: with bench/zcbench and with the ASan+UBSan build.
#
# Tests run side by side, ZC_TEST_JOBS at a time (default: twice the CPUs: a
# live run's window is wall-clock time, not CPU time). A script that touches
# something host-wide names it on a line "# test-locks: NAME..." among its
# first lines; two tests that name the same lock never run at once (both
# passes of one script included). The locks in use:
#   netns    network namespaces (zcb-PID-*, reaped by any netns run) and the
#            RFS sysctl a netns run with several workers raises
#   irq      the IRQ affinity of the NIC irq.sh pins (both its passes)
#   guest    qemu boots (each takes both cores for minutes)
#
# Each result line carries the test's time; the ten slowest and the total are
# listed at the end. Jobs start longest first, by the times the last run
# left in build/test-times (the order given when there is none). A SKIP
# shows the test's "skip:" line; a unit program that skipped some of its
# tests passes and names them. A failed test's log is printed whole.
set -u
cd "$(dirname "$0")/.."
TIMEOUT=${ZC_TEST_TIMEOUT:-300}
JOBS=${ZC_TEST_JOBS:-$(($(nproc) * 2))}
TIMES=build/test-times
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: ZC_TEST_JOBS must be a positive integer, not '$JOBS'" >&2; exit 2; }

# The reason a test gives for skipping: its "skip: ..." line.
skip_reason() {
	grep -m1 '^skip: ' "$1" | cut -c7- | grep . || grep -m1 -i 'skip' "$1" || tail -n1 "$1"
}

# The jobs: name, command (a string for eval), timeout, locks.
names=() cmds=() tmos=() locks=()
add() { names+=("$1"); cmds+=("$2"); tmos+=("$3"); locks+=("$4"); }
locks_of() { sed -n '1,30s/^# test-locks: *//p' "$1" | tr '\n' ' '; }
for t in "$@"; do
	case $t in
	tests/static/*.sh | tests/fuzz/*.sh)
		# Reads the sources, or runs its own sanitized harnesses: once.
		add "$t" "bash $t" "$TIMEOUT" "$(locks_of "$t")" ;;
	tests/guest/*.sh)
		# A whole qemu boot: once, with the plain binary, and more time.
		add "$t" "env ZCBENCH=bench/zcbench bash $t" "${ZC_GUEST_TIMEOUT:-900}" "guest $(locks_of "$t")" ;;
	*.sh)
		add "$t" "env ZCBENCH=bench/zcbench bash $t" "$TIMEOUT" "$(locks_of "$t")"
		if [ -z "${ZC_NO_ASAN:-}" ] && [ -x build/asan/zcbench ]; then
			add "$t [asan]" "env ZCBENCH=build/asan/zcbench ZC_ASAN=1 bash $t" "$TIMEOUT" "$(locks_of "$t")"
		fi ;;
	*) add "$t" "$t" "$TIMEOUT" "" ;;
	esac
done

# Longest first (by the last run's times), so the long ones do not start last.
declare -A last=()
if [ -r "$TIMES" ]; then
	while read -r secs name; do last[$name]=$secs; done <"$TIMES"
fi
order=()
while read -r _ i; do order+=("$i"); done < <(
	for i in "${!names[@]}"; do echo "${last[${names[$i]}]:-0} $i"; done | sort -s -k1,1 -rn)

LOGS=$(mktemp -d /tmp/zc-run.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
# Ctrl-C or a kill: every running test's process group goes too.
declare -A running=() started=()	# pid -> job index, job index -> start time
stop_all() { local p; for p in "${!running[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done; exit 130; }
trap stop_all INT TERM
declare -A held=()			# lock -> job index

can_start() {	# can_start INDEX: none of its locks is held
	local l
	for l in ${locks[$1]}; do [ -z "${held[$l]+x}" ] || return 1; done
}
start() {
	local i=$1 l
	for l in ${locks[$i]}; do held[$l]=$i; done
	started[$i]=$(date +%s.%N)
	# timeout puts itself and the test in a process group of their own (its
	# pid), which it and Ctrl-C end whole. Not a session of their own: the
	# scheduler's autogroups share the CPU between sessions first, and a
	# test's roles alone in their session were starved for most of a window
	# beside another test's (counters.sh beside conns.sh, every time).
	bash -c "exec timeout -k 5 ${tmos[$i]} ${cmds[$i]}" >"$LOGS/$i" 2>&1 </dev/null &
	running[$!]=$i
}

pass=0 fail=0 skip=0 failed=() times=()
finish_job() {	# finish_job INDEX RC
	local i=$1 rc=$2 l secs note name=${names[$1]} log=$LOGS/$1
	for l in ${locks[$i]}; do unset "held[$l]"; done
	secs=$(awk -v a="${started[$i]}" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	times+=("$secs $name")
	case $rc in
	0)
		pass=$((pass + 1))
		# A unit program that skipped some of its tests says so (tests/unit/zc_test.h).
		note=$(grep -m1 '^skipped: ' "$log")
		[ -n "$note" ] && note=" ($note: $(grep '^skip: ' "$log" | cut -c7- | paste -sd ';' - | sed 's/;/; /g'))"
		echo "PASS $name [${secs} s]$note" ;;
	77) skip=$((skip + 1)); echo "SKIP $name [${secs} s]: $(skip_reason "$log")" ;;
	*)
		fail=$((fail + 1)); failed+=("$name")
		[ "$rc" -eq 124 ] && note=" (timeout ${tmos[$i]} s)" || note=""
		echo "FAIL $name (exit $rc)$note [${secs} s]"; sed 's/^/    /' "$log" ;;
	esac
}

t0=$(date +%s.%N)
queue=("${order[@]}")
while [ ${#queue[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
	# Start what may start, longest first, up to JOBS.
	rest=()
	for i in "${queue[@]}"; do
		if [ ${#running[@]} -lt "$JOBS" ] && can_start "$i"; then start "$i"; else rest+=("$i"); fi
	done
	queue=("${rest[@]}")
	[ ${#running[@]} -gt 0 ] || { echo "tests/run.sh: nothing can start (locks: ${locks[*]})" >&2; exit 2; }
	wait -n -p done_pid "${!running[@]}"
	rc=$?
	i=${running[$done_pid]}
	unset "running[$done_pid]"
	finish_job "$i" "$rc"
done
total=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { s = b - a; printf "%d min %d s", s / 60, s % 60 }')

echo
printf '%s\n' "${times[@]}" | sort -rn >"$LOGS/times"
# Kept for the next run's order (each test's own time, whatever it passed).
mkdir -p "$(dirname "$TIMES")" && { [ -s "$TIMES" ] && cat "$TIMES"; cat "$LOGS/times"; } |
	awk '{ name = $0; sub(/^[^ ]+ /, "", name); t[name] = $1 } END { for (n in t) print t[n], n }' |
	sort -rn >"$TIMES.new" && mv "$TIMES.new" "$TIMES"
echo "the ten slowest:"
head -n 10 "$LOGS/times" | awk '{ printf "  %6.1f s  ", $1; $1 = ""; print substr($0, 2) }'
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped in $total ($JOBS at a time)"
[ "$fail" -eq 0 ]
