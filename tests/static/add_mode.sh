#!/usr/bin/env bash
# "A new data path is one new file and one line": in a copy of the tree, add
# a throwaway source mode made from modes/send.c under another name, which
# declares vs = send and one option, by adding exactly one file and one line
# of modes.h. Build it, then check that it is in `zcbench list` (with its
# relation and option), in `zcbench keys`, that a short run with it moves
# verified bytes with the option in effect, and that the run's headline has
# its ratio over send.
. "$(dirname "$0")/../lib.sh"
command -v make >/dev/null || skip "make missing"

tree=$TMP/tree
mkdir -p "$tree"
# The tracked (and new, not ignored) files as they are in this checkout,
# timestamps kept, plus the built BPF skeleton so it is not rebuilt.
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp -p --parents -t "$tree" 2>/dev/null
else
	cp -pr bench Makefile plots workloads hosts tests "$tree"/
fi
[ -d build/bpf ] && mkdir -p "$tree/build" && cp -pr build/bpf "$tree/build/"
[ -f "$tree/bench/modes/send.c" ] && [ -f "$tree/bench/modes/modes.h" ] ||
	fail "copy of the tree lacks bench/modes/send.c or modes.h"
(cd "$tree" && find bench -type f | sort | xargs md5sum) >"$TMP/before"

# The one new file: send.c renamed, with vs = send, one option and its priv.
sed -e 's/send_step/twin_step/g' -e 's/^ZC_MODE(send,/ZC_MODE(send_twin,/' \
	-e 's|^/\* source send:.*|/* source send-twin: a throwaway copy of send (tests/static/add_mode.sh). */|' \
	"$tree/bench/modes/send.c" | awk '
	/^ZC_MODE\(send_twin,/ {
		print "struct twin {\n\tlong burst;\t/* option send_twin_burst */\n};\n"
		print
		print "\t.vs = ZC_MODE_REF(send),"
		print "\t.opts = ZC_MODE_OPTS({ \"send_twin_burst\", ZC_MODE_OPT_LONG, \"3\", 1, 64,"
		print "\t\t\t       offsetof(struct twin, burst), \"a throwaway option\" }),"
		print "\t.priv_size = sizeof(struct twin),"
		next
	}
	{ print }' >"$tree/bench/modes/send_twin.c"
grep -q 'ZC_MODE(send_twin,' "$tree/bench/modes/send_twin.c" || fail "send.c no longer has ZC_MODE(send, ...)"
# The one line: right after send's in the list.
sed -i 's/^\(\s*\)X(send, "send")\(\s*\\\)$/&\n\1X(send_twin, "send-twin")\2/' "$tree/bench/modes/modes.h"

(cd "$tree" && find bench -type f | sort | xargs md5sum) >"$TMP/after"
changed=$(diff <(awk '{print $2, $1}' "$TMP/before") <(awk '{print $2, $1}' "$TMP/after") |
	sed -n 's/^[<>] \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
check "exactly modes.h and one new file differ ($changed)" \
	[ "$changed" = "bench/modes/modes.h bench/modes/send_twin.c " ]
check "one line added to modes.h" [ "$(diff "bench/modes/modes.h" "$tree/bench/modes/modes.h" | grep -c '^[<>]')" -eq 1 ]
check "new file only in the copy" [ ! -e bench/modes/send_twin.c ]

log=$TMP/build.log
(cd "$tree" && make -j2 bench/zcbench) >"$log" 2>&1 || { tail -n 30 "$log"; fail "build with the new mode"; }
Z=$tree/bench/zcbench

list=$("$Z" list) || fail "zcbench list"
check "list shows send-twin as a source mode" \
	bash -c 'sed -n "/^source modes:/,/^proxy modes:/p" <<<"$1" | grep -q "^  send-twin "' _ "$list"
check "list shows its relation" grep -q 'headline: send-twin/send source' <<<"$list"
check "list shows its option" grep -q 'option send_twin_burst = 3' <<<"$list"
check "keys shows its option" bash -c '"$1" keys | grep -q "send_twin_burst"' _ "$Z"

cat >"$TMP/w.ini" <<'INI'
[workload]
name = add-mode
warmup = 0.1
duration = 0.2
tail = 0.1
repetitions = 1
timeout = 10
chunk = 64k
; the headline's figure, not disturbance: keep samples other tasks disturbed
foreign_max = 100%
[run twin]
topology = direct
source = send-twin
[run send]
topology = direct
source = send
INI
(cd "$tree" && "$Z" run "$TMP/w.ini" --out "$TMP/out" --mode-opts send_twin_burst=7) >"$TMP/run.txt" 2>&1
rc=$?
f=$(result_in "$TMP/out")
[ -s "$f" ] || { cat "$TMP/run.txt"; fail "no results file (exit $rc)"; }
check "run exit 0 (got $rc)" [ "$rc" -eq 0 ]
jqe() { jq -e "$@" "$f" >/dev/null; }
check "send-twin run moved verified bytes" jqe '.runs[] | select(.name == "twin") |
	.status == "ok" and .verified == true and .samples[0].roles.sink.status == "ok" and
	.samples[0].roles.sink.window.bytes > 0'
check "its option reached the mode (7)" \
	jqe '.runs[] | select(.name == "twin") | .samples[0].roles.source.mode_options.send_twin_burst == 7'
check "headline has send-twin over send" bash -c '"$1" report --json "$2" | jq -e "[.files[0].headline[] |
	select(.ratio == \"send-twin/send source (send_twin_burst=7)\" and .numerator == \"twin\" and
	.denominator == \"send\" and (.value | type) == \"number\")] | length == 1" >/dev/null' _ "$Z" "$f"
check "run's table prints that headline" grep -q 'send-twin/send source' "$TMP/run.txt"
check "report shows it" bash -c '"$1" report "$2" | grep -q "send-twin/send source"' _ "$Z" "$f"
finish
