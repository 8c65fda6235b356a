#!/usr/bin/env bash
# make check-busy: the test suite with a CPU hog beside it, as on a CI machine
# that is rarely idle. Each pass pins one busy loop to a CPU (pass 1 to CPU
# ZC_HOG_CPU, default 0; each further pass to the next CPU) for the whole of
# `make check`, then stops it. ZC_BUSY_PASSES passes (default 1); exit 0 only
# if every pass passed. The hog runs at normal priority in its own session,
# like a neighbour's job.
#   tests/busy.sh COMMAND...   (the Makefile passes `make check`)
set -u
cd "$(dirname "$0")/.."
passes=${ZC_BUSY_PASSES:-1} cpu0=${ZC_HOG_CPU:-0} ncpu=$(nproc)
[[ $passes =~ ^[1-9][0-9]*$ ]] || { echo "tests/busy.sh: ZC_BUSY_PASSES must be a positive integer, not '$passes'" >&2; exit 2; }
[[ $cpu0 =~ ^[0-9]+$ ]] && [ "$cpu0" -lt "$ncpu" ] ||
	{ echo "tests/busy.sh: ZC_HOG_CPU must be a CPU number below $ncpu, not '$cpu0'" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: tests/busy.sh COMMAND..." >&2; exit 2; }
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
summary=() worst=0
for p in $(seq "$passes"); do
	cpu=$(((cpu0 + p - 1) % ncpu))
	# In a session of its own, as a neighbour's job is (the scheduler shares
	# the CPU between sessions first: autogroups).
	setsid taskset -c "$cpu" bash -c 'while :; do :; done' &
	hog=$!
	echo "check-busy: pass $p of $passes, a busy loop (pid $hog) pinned to CPU $cpu"
	t0=$(date +%s)
	"$@"
	rc=$?
	kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=
	secs=$(($(date +%s) - t0))
	summary+=("pass $p (hog on CPU $cpu): exit $rc in $((secs / 60)) min $((secs % 60)) s")
	[ "$rc" -eq 0 ] || worst=$rc
done
echo
printf 'check-busy: %s\n' "${summary[@]}"
exit "$worst"
