#!/usr/bin/env bash
# Fault injection (issue 13): nothing wrong is accepted, nothing finished is
# lost.
#  1. Each role (source, proxy, sink) killed (SIGKILL) and stopped (SIGSTOP)
#     at warm-up and mid-window, one sample each in one invocation: each such
#     sample fails blaming that role, the clean sample after them is ok, no
#     role process is left.
#  1b. The proxy stopped as its window opens and continued when most of it has
#     gone: the sample fails, its window a sliver of the one asked.
#  2. The controller SIGKILLed mid-run: the samples it finished are in the
#     file; its roles go away by themselves; the next run puts back what the
#     killed one had tuned (fake sysfs) and says so.
#  3. The results filesystem fills up (a small tmpfs) or turns read-only
#     mid-run: exit 1, the file is called stale (never a plain `results:
#     PATH`), everything measured is in the rescue copy; a filesystem full
#     from the start leaves no empty file behind.
#  4. A tampering proxy drops, duplicates, reorders and flips bytes (a few
#     bytes, and whole pattern periods that verify byte by byte): every
#     sample fails naming the connection; untouched it is ok and verified; a
#     foreign sink that exits 0 is ok but never verified, and says so.
#  5. Unverified figures (splice-null sinks) are marked in the run table, the
#     headline, report, and every export format; verified ones are not.
. "$(dirname "$0")/../lib.sh"
# Every workload here keeps disturbed samples (foreign_max = 100%): these
# checks are about what is accepted, and a loaded machine disturbs them all.
BIN=$(readlink -f "$ZCBENCH")
export TMPDIR=$TMP	# rescue copies land here, not in /tmp
jqe() { jq -e "$@" >/dev/null 2>&1; }
# The roles this binary runs right now for this script ("zcbench ROLE ..."), any parent.
roles_of_bin() { ours_pids "^$BIN (source|proxy|sink) "; }
# role_pid CTL ROLE TRIES: controller CTL's ROLE child, polled every 20 ms
# TRIES times at most; nothing if none came.
role_pid() {
	local p= _
	for _ in $(seq 1 "$3"); do
		p=$(pgrep -P "$1" -f "zcbench $2 " | head -n1)
		[ -n "$p" ] && break
		sleep 0.02
	done
	echo "$p"
}
cc -std=gnu11 -O2 -Wall -D_GNU_SOURCE -o "$TMP/tamper" tests/tamper_proxy.c || fail "build tamper_proxy"

# --- 1. kill and stop each role at warm-up and mid-window -------------------
# One invocation, 13 samples: 12 faults in turn, then one left alone.
WARM=0.5 DUR=0.8
printf '[workload]\nforeign_max = 100%%\nwarmup = %s\nduration = %s\ntail = 0.3\ntimeout = 2\nchunk = 64k\n\n[run p]\ntopology = proxy\nproxy = copy\nrepetitions = 13\n' \
	"$WARM" "$DUR" >"$TMP/f.ini"
plan=()
for sig in KILL STOP; do
	for role in source proxy sink; do
		plan+=("$sig $role 0.25 warm-up" "$sig $role $(awk -v w=$WARM -v d=$DUR 'BEGIN { print w + d / 2 }') mid-window")
	done
done
"$ZCBENCH" run "$TMP/f.ini" --out "$TMP/f" >"$TMP/f.out" 2>&1 &
ctl=$!
on_exit "kill -9 $ctl 2>/dev/null"
last_sink=
for k in "${!plan[@]}"; do
	read -r sig role at phase <<<"${plan[$k]}"
	# A new sample: a sink that was not there before.
	sink=
	for _ in $(seq 1 1500); do
		sink=$(pgrep -P "$ctl" -f "zcbench sink " | head -n1)
		[ -n "$sink" ] && [ "$sink" != "$last_sink" ] && break
		sink=
		kill -0 "$ctl" 2>/dev/null || break
		sleep 0.02
	done
	[ -n "$sink" ] || { bad "sample $k: no new sink appeared"; break; }
	last_sink=$sink
	# The source starts last, once the sink and proxy are ready; GO follows
	# its connections. Times count from it (on a loaded machine GO can still
	# come later: then the hit lands before it, and the blame must be the same).
	role_pid "$ctl" source 500 >/dev/null
	t0=$(date +%s.%N)
	pid=$(role_pid "$ctl" "$role" 250)
	[ -n "$pid" ] || { bad "sample $k: no $role process"; continue; }
	on_exit "kill -CONT $pid 2>/dev/null; kill -9 $pid 2>/dev/null"
	sleep "$(awk -v a="$at" -v t0="$t0" -v now="$(date +%s.%N)" 'BEGIN { s = a - (now - t0); print (s > 0 ? s : 0) }')"
	kill -"$sig" "$pid" 2>/dev/null
	echo "# sample $k: SIG$sig to the $role (pid $pid) at $phase"
done
wait "$ctl"
rc=$?
f=$(result_in "$TMP/f")
[ -s "$f" ] || { cat "$TMP/f.out"; fail "roles: no results file (exit $rc)"; }
check "roles: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "roles: 13 samples, file complete" jqe '.status == "complete" and (.runs[0].samples | length) == 13' "$f"
for k in "${!plan[@]}"; do
	read -r sig role at phase <<<"${plan[$k]}"
	s=".runs[0].samples[] | select(.rep == $k)"
	st=$(jq -r "$s | .status" "$f")
	reason=$(jq -r "$s | .reason // \"\"" "$f")
	check "SIG$sig $role at $phase: sample failed (got $st)" [ "$st" = failed ]
	if [ "$sig" = KILL ]; then
		check "SIG$sig $role at $phase: blames the $role's death ($reason)" \
			grep -q "$role: killed by signal 9" <<<"$reason"
	else
		# A stopped role stalls its peers: the controller's deadline ends it
		# (before GO, the deadline of its wait for the role to get ready).
		check "SIG$sig $role at $phase: the stall named: the $role was stopped ($reason)" \
			grep -Eq "(timed out 2 s after the window|did not get ready \(timed out\)).* the $role was stopped \(state T, SIGSTOP\)" <<<"$reason"
	fi
	check "SIG$sig $role at $phase: no figure kept" jqe "$s | .gbps_per_core == null" "$f"
done
check "the sample after the faults is ok and verified" \
	jqe '.runs[0].samples[] | select(.rep == 12) | .status == "ok" and .verified == true' "$f"
check "the run says partial, its summary from the one ok sample" \
	jqe '.runs[0].status == "partial" and .runs[0].summary.gbps_per_core.n == 1' "$f"
sleep 0.3
check "no role process left (stopped ones included)" [ -z "$(roles_of_bin)" ]

# --- 1b. a role that gets no CPU when its window opens ------------------------
# The proxy stopped from before the window opens until most of it has gone,
# then continued: its window is a sliver of the one asked, and the sample
# fails saying so (its figures would describe another time than its peers').
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.5\nduration = 1\ntail = 0.3\ntimeout = 5\nchunk = 64k\nrepetitions = 1\n\n[run p]\ntopology = proxy\nproxy = copy\n' >"$TMP/late.ini"
"$ZCBENCH" run "$TMP/late.ini" --out "$TMP/late" >"$TMP/late.out" 2>&1 &
ctl=$!
on_exit "kill -9 $ctl 2>/dev/null"
pid=$(role_pid "$ctl" proxy 1500)
# Its two connections up: every role is ready, and GO comes next (the window
# opens 0.5 s after it).
for _ in $(seq 1 500); do
	[ -n "$pid" ] && [ "$(ss -tnpH state established 2>/dev/null | grep -c "pid=$pid,")" -ge 2 ] && break
	sleep 0.01
done
if [ -n "$pid" ]; then
	kill -STOP "$pid"
	on_exit "kill -CONT $pid 2>/dev/null"
	sleep 1.4
	kill -CONT "$pid"
fi
wait "$ctl"
rc=$?
f=$(result_in "$TMP/late")
check "late window: the proxy was found" [ -n "$pid" ]
check "late window: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "late window: the sample failed, saying the proxy's window was a sliver ($(jq -r '.runs[0].samples[0].reason' "${f:-/dev/null}"))" \
	jqe '.runs[0].samples[0] | .status == "failed" and .gbps_per_core == null and
	     (.reason | test("the proxy.s window lasted [0-9.e-]+ s of the 1 s asked"))' "${f:-/dev/null}"

# --- 2. the controller SIGKILLed mid-run ------------------------------------
S=$TMP/sys/sys/devices/system/cpu
for c in $(seq 0 $(($(nproc) - 1))); do
	mkdir -p "$S/cpu$c/cpufreq"
	echo powersave >"$S/cpu$c/cpufreq/scaling_governor"
	echo "performance powersave" >"$S/cpu$c/cpufreq/scaling_available_governors"
done
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.2\nduration = 0.8\ntail = 0.2\ntimeout = 5\nchunk = 64k\ntune = on\n\n[run p]\ntopology = proxy\nproxy = copy\nrepetitions = 20\n' >"$TMP/c.ini"
ZC_SYSFS_ROOT=$TMP/sys ZC_STATE_DIR=$TMP/state "$ZCBENCH" run "$TMP/c.ini" --out "$TMP/c" >"$TMP/c.out" 2>&1 &
ctl=$!
on_exit "kill -9 $ctl 2>/dev/null"
f=
for _ in $(seq 1 600); do
	f=$(result_in "$TMP/c")
	[ -n "$f" ] && jqe '[.runs[0].samples[] | select(.status == "ok")] | length >= 2' "$f" && break
	sleep 0.1
done
kids=$(pgrep -P "$ctl" | tr '\n' ' ')
kill -9 "$ctl"
wait "$ctl" 2>/dev/null
check "controller: killed after 2 samples were saved" jqe '[.runs[0].samples[] | select(.status == "ok")] | length >= 2' "$f"
n_before=$(jq '.runs[0].samples | length' "$f")
check "controller: the file is whole JSON, says running, keeps its $n_before samples" \
	jqe '.status == "running" and (.runs[0].samples | length) >= 2 and
	     ([.runs[0].samples[] | select(.status == "ok") | .verified] | all)' "$f"
"$ZCBENCH" report "$f" >"$TMP/c.report" 2>&1
check "controller: report reads the killed run's file" [ $? -eq 0 ]
cpu=$(jq -r '.runs[0].placement.proxy.cpu' "$f")
check "controller: the killed run left CPU $cpu tuned" [ "$(cat "$S/cpu$cpu/cpufreq/scaling_governor")" = performance ]
gone=no
for _ in $(seq 1 100); do
	left=
	for p in $kids; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
	[ -z "$left" ] && { gone=yes; break; }
	sleep 0.1
done
check "controller: its roles went away by themselves (left:${left:-none})" [ "$gone" = yes ]
for p in $left; do kill -9 "$p" 2>/dev/null; done
sed -i 's/repetitions = 20/repetitions = 1/; s/tune = on/tune = off/' "$TMP/c.ini"
ZC_SYSFS_ROOT=$TMP/sys ZC_STATE_DIR=$TMP/state "$ZCBENCH" run "$TMP/c.ini" --out "$TMP/c" >"$TMP/c2.out" 2>&1
rc=$?
check "next run: exit 0 (got $rc)" [ "$rc" -eq 0 ] || tail -n 5 "$TMP/c2.out"
check "next run: puts back what the killed one tuned, and says so" \
	grep -q 'tune: restored [0-9]* value(s) left by a dead zcbench' "$TMP/c2.out"
check "next run: governor back" [ "$(cat "$S/cpu$cpu/cpufreq/scaling_governor")" = powersave ]
check "next run: a file of its own" [ "$(ls "$TMP/c"/*.json | wc -l)" -eq 2 ]
check "next run: the killed run's file untouched" jqe ".runs[0].samples | length == $n_before" "$f"

# --- 3. the results filesystem fills up or turns read-only ------------------
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.1\nduration = 0.5\ntail = 0.2\ntimeout = 5\nchunk = 64k\n\n[run p]\ntopology = proxy\nproxy = copy\nrepetitions = 3\n' >"$TMP/s.ini"
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: the full and read-only results filesystems need root (mount -t tmpfs)"
else
	M=$TMP/mnt
	mkdir -p "$M"
	mount -t tmpfs -o size=1m zcfaults "$M" || fail "mount tmpfs"
	on_exit "umount -l $M 2>/dev/null"
	for how in full ro; do
		rm -rf "${M:?}"/* "$TMP"/zcbench-rescue-*
		"$ZCBENCH" run "$TMP/s.ini" --out "$M/r" >"$TMP/$how.out" 2>"$TMP/$how.err" &
		ctl=$!
		wait_sample "$M/r"
		if [ "$how" = full ]; then
			dd if=/dev/zero of="$M/filler" bs=64k 2>/dev/null
		else
			mount -o remount,ro "$M"
		fi
		wait "$ctl"
		rc=$?
		[ "$how" = ro ] && mount -o remount,rw "$M"
		rescue=$(ls "$TMP"/zcbench-rescue-* 2>/dev/null | head -n1)
		check "$how: exit 1 (got $rc)" [ "$rc" -eq 1 ]
		check "$how: no plain 'results: PATH' line" [ -z "$(grep -E '^results: [^ ]+$' "$TMP/$how.out")" ]
		check "$how: the file is called stale, with what it holds" \
			grep -Eq "^results: .* is STALE: writing it failed \((No space left on device|Read-only file system)\); it holds [12] of the 3 samples taken" "$TMP/$how.out"
		check "$how: stderr says so too" grep -q "is stale" "$TMP/$how.err"
		check "$how: the stale file is whole JSON with the samples it claims" \
			jqe '.status == "running" and (.runs[0].samples | length) >= 1' "$f"
		check "$how: everything measured is in the rescue copy ($rescue)" \
			jqe '.status == "complete" and (.runs[0].samples | length) == 3' "${rescue:-/nonexistent}"
		check "$how: the rescue copy is named on stdout" grep -q "^everything measured: $rescue" "$TMP/$how.out"
		check "$how: no temporary file left" [ -z "$(ls -A "$M/r" | grep '^\.')" ]
	done
	# Full, then the controller SIGKILLed: the rescue copy written after each
	# failed write holds what the stale file lacks.
	rm -rf "${M:?}"/* "$TMP"/zcbench-rescue-*
	sed 's/repetitions = 3/repetitions = 20/' "$TMP/s.ini" >"$TMP/s20.ini"
	"$ZCBENCH" run "$TMP/s20.ini" --out "$M/r" >"$TMP/fk.out" 2>"$TMP/fk.err" &
	ctl=$!
	wait_sample "$M/r"
	dd if=/dev/zero of="$M/filler" bs=64k 2>/dev/null
	rescue=
	for _ in $(seq 1 300); do
		rescue=$(ls "$TMP"/zcbench-rescue-* 2>/dev/null | head -n1)
		[ -n "$rescue" ] && [ "$(jq '.runs[0].samples | length' "$rescue" 2>/dev/null || echo 0)" -gt \
			"$(jq '.runs[0].samples | length' "$f")" ] && break
		sleep 0.1
	done
	kill -9 "$ctl"
	wait "$ctl" 2>/dev/null
	check "full, then killed: warned at the first failed write, naming the rescue copy" \
		grep -q "cannot be written: every sample goes to $rescue until it can" "$TMP/fk.err"
	check "full, then killed: the rescue copy holds more samples than the stale file" \
		[ "$(jq '.runs[0].samples | length' "${rescue:-/dev/null}" 2>/dev/null || echo 0)" -gt \
		  "$(jq '.runs[0].samples | length' "$f")" ]
	# Full from the start: the run cannot save its first write; no empty file stays.
	rm -rf "${M:?}"/*
	mkdir -p "$M/r"
	dd if=/dev/zero of="$M/filler" bs=64k 2>/dev/null
	"$ZCBENCH" run "$TMP/s.ini" --out "$M/r" >"$TMP/f0.out" 2>&1
	rc=$?
	check "full from the start: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "full from the start: says why" grep -q "No space left on device" "$TMP/f0.out"
	check "full from the start: no empty results file left" [ -z "$(ls -A "$M/r")" ]
	umount -l "$M"
fi

# --- 4. a tampering proxy ----------------------------------------------------
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.1\nduration = 0.6\ntail = 0.3\ntimeout = 5\nchunk = 64k\nrepetitions = 1\n\n[run p]\ntopology = proxy\nproxy = copy\n' >"$TMP/t.ini"
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.1\nduration = 0.6\ntail = 0.3\ntimeout = 5\nchunk = 64k\nrepetitions = 1\n\n[run t]\ntopology = proxy\nsource = tee\nproxy = copy\n' >"$TMP/tee.ini"
# name|workload|how|offset|length|what the reason must say
while IFS='|' read -r name ini how off len want; do
	ZC_TAMPER_HOW=$how ZC_TAMPER_CONN=1 ZC_TAMPER_OFF=$off ZC_TAMPER_LEN=$len \
		"$ZCBENCH" run "$TMP/$ini" --connections=2 --exec-proxy "$TMP/tamper" --out "$TMP/t-$name" \
		>"$TMP/t-$name.out" 2>&1
	rc=$?
	f=$(result_in "$TMP/t-$name")
	reason=$(jq -r '.runs[0].samples[0].reason // ""' "${f:-/dev/null}")
	if [ "$how" = none ]; then
		check "tamper $name: untouched bytes pass, verified (exit $rc)" \
			jqe '.runs[0].status == "ok" and .runs[0].verified == true and
			     .runs[0].samples[0].connections_checked == 2' "${f:-/dev/null}"
		continue
	fi
	check "tamper $name: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "tamper $name: sample failed, no figure" \
		jqe '.runs[0].samples[0].status == "failed" and .runs[0].samples[0].gbps_per_core == null' "${f:-/dev/null}"
	check "tamper $name: the reason names it ($reason)" grep -Eq "$want" <<<"$reason"
done <<'EOF'
none|t.ini|none|0|1|
flip|t.ini|flip|300001|1|payload mismatch on connection 1 of 2 at stream offset 300001
drop-bytes|t.ini|drop|300001|4096|payload mismatch on connection 1 of 2 at stream offset 300001
dup-bytes|t.ini|dup|300001|4096|payload mismatch on connection 1 of 2 at stream offset 304097
swap-bytes|t.ini|swap|300001|4096|payload mismatch on connection 1 of 2 at stream offset 300001
drop-period|t.ini|drop|2097152|1048576|connection 1: the source sent [0-9]+ payload bytes, the sink received [0-9]+ \(1048576 fewer\)
dup-period|t.ini|dup|2097152|1048576|connection 1: the source sent [0-9]+ payload bytes, the sink received [0-9]+ \(1048576 more\)
tee-drop-chunk|tee.ini|drop|655360|65536|connection 1: the source sent [0-9]+ payload bytes, the sink received [0-9]+ \(65536 fewer\)
tee-dup-chunk|tee.ini|dup|655360|65536|connection 1: the source sent [0-9]+ payload bytes, the sink received [0-9]+ \(65536 more\)
EOF
# A foreign sink that reads and exits 0 checks nothing: ok, never verified.
"$ZCBENCH" run "$TMP/t.ini" --exec-sink "$TMP/tamper" --out "$TMP/fsink" >"$TMP/fsink.out" 2>&1
rc=$?
f=$(result_in "$TMP/fsink")
check "foreign sink: the run is ok (exit $rc)" [ "$rc" -eq 0 ]
check "foreign sink: not verified, and why" jqe '.runs[0].verified == false and
	(.runs[0].samples[0].unverified | test("foreign program")) and .runs[0].samples[0].verified == false' "${f:-/dev/null}"
check "foreign sink: the table marks it unverified" grep -Eq '^p .* ok unverified' "$TMP/fsink.out"
check "foreign sink: export marks it too" bash -c "'$ZCBENCH' export --format csv '$f' | grep -q ',false,0,ok,'"

# --- 5. unverified figures are marked wherever they appear -------------------
printf '[workload]\nforeign_max = 100%%\nwarmup = 0.1\nduration = 0.5\ntail = 0.2\ntimeout = 5\nchunk = 64k\nrepetitions = 1\nsink = splice-null\n\n[run proxy-copy]\ntopology = proxy\nproxy = copy\n\n[run proxy-splice]\ntopology = proxy\nproxy = splice\n' >"$TMP/n.ini"
"$ZCBENCH" run "$TMP/n.ini" --out "$TMP/n" >"$TMP/n.out" 2>&1
rc=$?
f=$(result_in "$TMP/n")
check "splice-null: the runs are ok (exit $rc)" [ "$rc" -eq 0 ]
check "splice-null: runs and samples unverified, with why" jqe '[.runs[] | .verified == false and
	(.unverified | test("splice-null does not check")) and .samples[0].verified == false] | all' "$f"
check "splice-null: the headline row says unverified" jqe '.headline[0].verified == false' <(report_json "$f")
check "splice-null: the printed headline says UNVERIFIED" grep -q 'splice/copy proxy .*UNVERIFIED' "$TMP/n.out"
check "splice-null: the run table says unverified" [ "$(grep -c ' ok unverified$' "$TMP/n.out")" -eq 2 ]
"$ZCBENCH" report "$f" >"$TMP/n.report" 2>&1
check "report: the ratio says UNVERIFIED" grep -q 'splice/copy proxy .*before, measured.*UNVERIFIED' "$TMP/n.report"
"$ZCBENCH" export --format csv "$f" >"$TMP/n.csv"
check "csv: a verified column" grep -q ',emulated,verified,rep,status,' "$TMP/n.csv"
check "csv: false in both rows" [ "$(grep -c ',false,false,0,ok,' "$TMP/n.csv")" -eq 2 ]
check "prometheus: a verified label, false" grep -q 'verified="false"' <("$ZCBENCH" export --format prometheus "$f")
check "bmf: keys of their own" jqe 'keys | length == 2 and all(endswith(" unverified"))' \
	<("$ZCBENCH" export --format bmf --what runs "$f")
check "gab: names of their own" jqe 'all(.name | test(" unverified ")) and all(.extra | test("UNVERIFIED"))' \
	<("$ZCBENCH" export --format gab --what runs "$f")
# The headline ratios made of them are marked as well.
check "bmf: the headline keys too" jqe 'keys | length > 0 and all(startswith("headline ") and endswith(" unverified"))' \
	<("$ZCBENCH" export --format bmf --what headlines "$f")
check "gab: the headline names too" jqe 'length > 0 and all(.name | endswith(" unverified")) and all(.extra | test("UNVERIFIED"))' \
	<("$ZCBENCH" export --format gab --what headlines "$f")
# A verified file has no mark: report and export of the untouched tamper run.
f=$(result_in "$TMP/t-none")
check "verified: no mark in report" bash -c "! '$ZCBENCH' report '$f' | grep -q UNVERIFIED"
check "verified: csv says true" grep -q ',false,true,0,ok,' <("$ZCBENCH" export --format csv "$f")
sleep 0.3
check "no role process left at the end" [ -z "$(roles_of_bin)" ]
finish
