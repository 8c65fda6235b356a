#!/usr/bin/env bash
# Makes results/fixtures/profile.json (and results/fixtures/profile/*.folded):
# a real `zcbench run` of the workload below with --counters=all, every run's
# DUT core profiled from outside during its first repetition's window
# (tests/profile_dut.sh), the summary attached to the run as "profile".
# Root (CPU-wide sampling, BPF counters). About 5 minutes.
#
#   bash tests/profile-fixture.sh [OUTDIR]      (default results/fixtures)
#   KEEP=1 keeps the run and the profiles; FROM=THAT_DIR merges them again.
set -u
cd "$(dirname "$0")/.."
. tests/lib.sh
. tests/profile_dut.sh
OUT=${1:-results/fixtures}
why=$(profile_possible) || skip "$why"

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

if [ -n "${FROM:-}" ]; then
	# FROM=DIR: merge again what an earlier KEEP=1 run left in DIR.
	cp -r "$FROM/run" "$FROM/prof" "$TMP/"
else
	"$ZCBENCH" run "$TMP/w.ini" --counters=all --out "$TMP/run" >"$TMP/run.log" 2>&1 &
	runpid=$!
	# The window opens ~1 s after the DUT starts (warm-up): sample 1.4 .. 4.4 s.
	profile_duts "$runpid" "$TMP/prof" 1.4 3
	wait "$runpid" || { cat "$TMP/run.log"; fail "zcbench run failed"; }
fi
res=$(result_in "$TMP/run")
mkdir -p "$OUT/profile"
cp "$res" "$TMP/merged.json"
for d in "$TMP"/prof/*/; do
	[ -s "$d/summary.json" ] || { cat "$d/err"; continue; }
	read -r topo src prx snk chunk pipe <"$d/key"
	[ "$prx" = - ] && prx=""
	name=$(jq -r --arg t "$topo" --arg s "$src" --arg p "$prx" --argjson c "$chunk" \
		'.runs[] | select(.key.topology == $t and .key.source == $s and .key.proxy == $p and
			.key.chunk == $c) | .name' "$TMP/merged.json")
	[ -n "$name" ] || continue
	base="$name-$chunk"
	# Stacks kept for the copy/splice pair at 64k only, and only the DUT's
	# own (the summary's --comm): a whole core's stacks are megabytes.
	f=null
	case $base in proxy-copy-65536 | proxy-splice-65536)
		grep "^[^;]*-$(cat "$d/pid");" "$d/stacks.folded" >"$OUT/profile/$base.folded"
		f="\"profile/$base.folded\"" ;;
	esac
	# Paths relative to the results file; perf.data is not kept (megabytes).
	jq --arg t "$topo" --arg s "$src" --arg p "$prx" --argjson c "$chunk" \
		--argjson f "$f" --slurpfile p1 "$d/summary.json" \
		'(.runs[] | select(.key.topology == $t and .key.source == $s and .key.proxy == $p and
			.key.chunk == $c) | .profile) = ($p1[0] | .folded = $f | .data = null |
			.flamegraph = null)' "$TMP/merged.json" >"$TMP/m2.json" && mv "$TMP/m2.json" "$TMP/merged.json"
done
# Kept small: the roles' counters (their figures are in the samples'
# metrics), NIC tables and per-run options go.
jq --indent 1 '.schema_version = "1.3" | ._fixture_note = "trimmed: runs[].options, roles.*.nics and roles.*.counters removed (the counter figures stay in the samples metrics); profiles taken from outside by tests/profile-fixture.sh (perf.data not kept; folded stacks of the DUT process kept for proxy-copy and proxy-splice at 64k)" |
	del(.runs[].options) | del(.runs[].samples[].roles[]?.nics) |
	del(.runs[].samples[].roles[]?.counters)' "$TMP/merged.json" >"$OUT/profile.json"
echo "wrote $OUT/profile.json and $OUT/profile/*.folded"
jq -r '.runs[] | "\(.name) \(.key.chunk) profile: \(.profile.samples // "none") samples"' "$OUT/profile.json"
