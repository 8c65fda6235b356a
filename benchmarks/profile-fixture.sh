#!/usr/bin/env bash
# Makes results/fixtures/profile.json (and results/fixtures/profile/*.folded):
# the workload below run with --counters=all and every run's DUT core
# profiled during its first repetition's window (benchmarks/profile-run.sh),
# trimmed to stay small. Root (CPU-wide sampling, BPF counters). ~5 minutes.
#
#   bash benchmarks/profile-fixture.sh [OUTDIR]      (default results/fixtures)
#   FROM=DIR: trim again what an earlier benchmarks/profile-run.sh left in DIR.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
OUT=${1:-results/fixtures}

cat >"$TMP/w.ini" <<'INI'
; the profile fixture: copy against splice on the proxy, the source paths,
; an emulated after-mode of each, and msg-zerocopy (copied on loopback)
[workload]
name = profile-fixture
description = copy vs splice proxy, send vs vmsplice/msg-zerocopy source, emulated after-modes
warmup = 1
duration = 4
repetitions = 3
chunk = 64k, 1M
pipe_size = 1M

[run proxy-copy]
topology = proxy
proxy = copy

[run proxy-splice]
topology = proxy
proxy = splice

[run proxy-splice-as-copy]
topology = proxy
proxy = splice-as-copy

[run src-send]
topology = direct
source = send

[run src-vmsplice]
topology = direct
source = vmsplice

[run src-vmsplice-as-writev]
topology = direct
source = vmsplice-as-writev

[run src-msg-zerocopy]
topology = direct
source = msg-zerocopy
INI

PR=${FROM:-$TMP/pr}
if [ -z "${FROM:-}" ]; then
	bash benchmarks/profile-run.sh "$TMP/w.ini" "$PR" --counters=all >"$TMP/pr.log" 2>&1
	rc=$?
	[ $rc -eq 77 ] && skip "$(grep '^skip:' "$TMP/pr.log")"
	[ $rc -eq 0 ] || { cat "$TMP/pr.log"; fail "profile-run failed"; }
fi
mkdir -p "$OUT/profile"
# Stacks kept for the copy/splice pair at 64k only, and only the DUT's own
# process (the summary's comm: its pid): a whole core's stacks are megabytes.
keep='proxy-copy-65536-1048576 proxy-splice-65536-1048576'
cp "$PR/results.json" "$TMP/m.json"
for k in $keep; do
	pid=$(jq -r .comm "$PR/profile/$k/summary.json")
	name=${k%-65536-1048576}
	grep "^[^;]*-$pid;" "$PR/profile/$k/stacks.folded" >"$OUT/profile/$name-65536.folded"
	jq --arg d "profile/$k/stacks.folded" --arg f "profile/$name-65536.folded" \
		'(.runs[].profile | select(.folded == $d) | .folded) = $f' "$TMP/m.json" >"$TMP/m2.json"
	mv "$TMP/m2.json" "$TMP/m.json"
done
# Kept small: the roles' counters (their figures are in the samples'
# metrics), NIC tables, per-run options; no perf.data or flame graph.
jq --indent 1 '._fixture_note = "trimmed: runs[].options, roles.*.nics and roles.*.counters removed (the counter figures stay in the samples metrics); profiles taken from outside by benchmarks/profile-fixture.sh (perf.data and flame graphs not kept; folded stacks of the DUT process kept for proxy-copy and proxy-splice at 64k)" |
	del(.runs[].options) | del(.runs[].samples[].roles[]?.nics) |
	del(.runs[].samples[].roles[]?.counters) |
	(.runs[].profile | select(. != null)) |= (.data = null | .flamegraph = null |
		(if (.folded // "" | startswith("profile/") and (endswith("-65536.folded") | not)) then .folded = null else . end))' \
	"$TMP/m.json" >"$OUT/profile.json"
echo "wrote $OUT/profile.json and $OUT/profile/*.folded"
jq -r '.runs[] | "\(.name) \(.key.chunk) profile: \(.profile.samples // "none") samples"' "$OUT/profile.json"
