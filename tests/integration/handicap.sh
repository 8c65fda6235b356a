#!/usr/bin/env bash
# The bare loops' handicap (benchmarks/handicap.h) is applied: started by zcbench
# run (--exec-proxy, --exec-source) with ZC_HANDICAP_PCT=5, each says in its
# report (kept as the sample's roles.ROLE) that the handicap took 5% of its
# own CPU time, within 1.5 points, measured on its thread's CPU clock; with
# none it took nothing; a bad percent fails the sample with its reason. A
# ratio of CPU times inside the process, not a speed: not a timed test. The
# bare source's bytes still verify at the sink.
. "$(dirname "$0")/../lib.sh"
for b in proxy source; do
	extra=()
	[ $b = source ] && extra=(bench/lib/pattern.c)
	cc -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Ibenchmarks -Ibench -o "$TMP/bare_$b" \
		benchmarks/bare_$b.c benchmarks/handicap.c "${extra[@]}" || fail "build bare_$b"
done
cat >"$TMP/w.ini" <<INI
[workload]
warmup = 0.2
duration = 0.5
repetitions = 1
chunk = 64k
pipe_size = 1M

[run proxy-copy]
topology = proxy
proxy = copy

[run proxy-splice]
topology = proxy
proxy = splice

[run src-send]
topology = direct
source = send
INI
# one TAG PCT ROLE RUN...: the results file in $f.
one() {
	local tag=$1 pct=$2 role=$3 only=()
	shift 3
	for r in "$@"; do only+=(--only "$r"); done
	ZC_HANDICAP_PCT=$pct $ZCBENCH run "$TMP/w.ini" "${only[@]}" --foreign-max=100% \
		--exec-"$role" "$TMP/bare_$role" --out "$TMP/$tag" >"$TMP/$tag.txt" 2>&1
	rc=$?
	f=$(result_in "$TMP/$tag")
	[ -s "$f" ] || { cat "$TMP/$tag.txt"; fail "$tag: no results (exit $rc)"; }
}
for pct in 5 0; do
	one "p$pct" "$pct" proxy proxy-copy proxy-splice
	check "proxy, handicap $pct%: exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/p$pct.txt"
	one "s$pct" "$pct" source src-send
	check "source, handicap $pct%: exit 0 (got $rc)" [ "$rc" -eq 0 ] || cat "$TMP/s$pct.txt"
	for t in "p$pct proxy" "s$pct source"; do
		read -r tag role <<<"$t"
		f=$(result_in "$TMP/$tag")
		while IFS=$'\t' read -r name h; do
			check "$name, handicap $pct%: took $(jq -r '.cpu_fraction * 1000 | round / 10' <<<"$h")% of the $role's CPU ($h)" \
				[ "$(jq --argjson p "$pct" '.requested_pct == $p and .thread_cpu_s > 0 and
					(.cpu_fraction * 100 - $p | fabs) <= 1.5 and
					(if $p == 0 then .handicap_cpu_s == 0 and .pass_bytes == 0
					 else .handicap_cpu_s > 0 and .pass_bytes > 0 and .bytes > 0 end)' <<<"$h")" = true ]
		done < <(jq -r --arg r "$role" '.runs[] |
			"\(.name)\t\(.samples[0].roles[$r].handicap // {} | tojson)"' "$f")
	done
	check "bare source, handicap $pct%: the sink verified every byte" \
		[ "$(jq '.runs[0].samples[0].roles.sink | .verified_bytes > 0 and .verified_bytes == .connections[0].bytes' "$f")" = true ]
done
one bad abc proxy proxy-copy
check "a bad percent fails the run (exit 1, got $rc)" [ "$rc" -eq 1 ]
check "and says why" grep -q 'ZC_HANDICAP_PCT' <<<"$(jq -r '.runs[0].samples[0].reason' "$f")"
finish
