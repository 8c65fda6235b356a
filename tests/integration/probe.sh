#!/usr/bin/env bash
# zcbench probe: real verdicts on this kernel, every emulated after-mode
# classified as a copy through its own data path, "skipped: reason" where a
# probe cannot run, bounded run time, nothing left behind.
# ZC_EXPECT_VMSPLICE=copy when running on a kernel with Safin's series.
. "$(dirname "$0")/../lib.sh"
expect=${ZC_EXPECT_VMSPLICE:-zero-copy}
before=$(ls /var/tmp | grep -c '^zcbench-probe-' || true)

# Bounded: each probe child is killed after --timeout-ms, so the whole probe
# ends; how soon depends on the machine's load (and on other runs' probes,
# which take the probe lock in turn), so a hang is what fails here, not a time.
timeout -k 5 120 "$ZCBENCH" probe --json >"$TMP/fp.json"
rc=$?
[ "$rc" -ne 124 ] || fail "probe --json did not end within 120 s"
[ "$rc" -eq 0 ] || fail "probe --json exited $rc"
echo "# probe took $(jq .elapsed_s "$TMP/fp.json") s"

v=$(jq -r '.probes.vmsplice_to_pipe.verdict' "$TMP/fp.json")
[ "$v" = "$expect" ] || fail "vmsplice_to_pipe: '$v', expected '$expect'"
for p in vmsplice_gift vmsplice_overfill_poll vmsplice_overfill_nonblock vmsplice_overfill_flags0 \
	 vmsplice_nonblock_pipe vmsplice_to_user splice_needs_write splice_file \
	 sendfile_file tee_pipe; do
	v=$(jq -r ".probes.$p.verdict" "$TMP/fp.json")
	case $v in ""|null|error|timeout|garbled) fail "probe $p has no real verdict: '$v'" ;; esac
done
# Every emulated mode exists, has a data path the probe ran, and copies.
n=$(jq '[.modes[] | select(.emulated)] | length' "$TMP/fp.json")
[ "$n" -ge 4 ] || fail "only $n emulated modes probed"
bad=$(jq -r '.modes | to_entries[] | select(.value.emulated and .value.verdict != "copy") | .key' "$TMP/fp.json")
[ -z "$bad" ] || fail "emulated modes not classified as a copy: $bad"
jq -e '.verdicts | index("emulated after-modes: '"$n of $n"' classify as a copy (faithful)")' \
	"$TMP/fp.json" >/dev/null || fail "verdict line for emulated modes missing"
if [ "$expect" = zero-copy ]; then
	jq -e '.verdicts | index("vmsplice: zero-copy (pre-Safin)")' "$TMP/fp.json" >/dev/null ||
		fail "verdict line 'vmsplice: zero-copy (pre-Safin)' missing"
	# The real zero-copy modes must look zero-copy through the same test.
	for m in vmsplice tee splice-file; do
		v=$(jq -r ".modes[\"$m\"].verdict" "$TMP/fp.json")
		[ "$v" = zero-copy ] || fail "mode $m: '$v', expected zero-copy"
	done
fi

# The same probes on Safin's pwritev2 wrapper must give the patched kernel's
# answers: the detectors can see "after" behaviour, not only "before".
"$ZCBENCH" probe --json --no-modes --emulate-safin >"$TMP/safin.json" || fail "--emulate-safin exited $?"
jq -e '.emulated == "safin-vmsplice" and .probes.vmsplice_to_pipe.verdict == "copy"
       and .probes.vmsplice_nonblock_pipe.verdict == "EAGAIN"
       and .probes.vmsplice_overfill_poll.verdict == "blocks"
       and .probes.vmsplice_to_user.verdict == "works"
       and (.verdicts | index("vmsplice: copy (pwritev2 semantics)"))
       and (.label | startswith("EMULATED"))' "$TMP/safin.json" >/dev/null ||
	fail "emulated Safin fingerprint wrong: $(jq -c '[.probes[] | .verdict]' "$TMP/safin.json")"
jq -e '.emulated == false' "$TMP/fp.json" >/dev/null || fail "real fingerprint marked emulated"

# A sysctl this kernel lacks: the probes that need it say why they skipped.
if [ ! -e /proc/sys/fs/splice_needs_write ]; then
	v=$(jq -r '.probes.splice_needs_write.verdict' "$TMP/fp.json")
	[ "$v" = absent ] || fail "splice_needs_write: '$v', expected absent"
	jq -e '.probes.splice_file_unpriv_snw1 | .verdict == "skipped" and (.detail | test("absent"))' \
		"$TMP/fp.json" >/dev/null || fail "splice_file_unpriv_snw1 not skipped with a reason"
fi
# No such user: skipped with the reason, in JSON and in the human table.
"$ZCBENCH" probe --no-modes --user zc-no-such-user >"$TMP/human.txt" || fail "probe --user exited $?"
grep -q '^  splice_file_unpriv .*skipped: no user .zc-no-such-user.' "$TMP/human.txt" ||
	fail "no 'skipped: no user' line: $(grep splice_file_unpriv "$TMP/human.txt")"
# Not root: the unprivileged-user probes cannot run and say so.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$ZCBENCH"; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$ZCBENCH" probe --json --no-modes \
		>"$TMP/nobody.json" || fail "probe as nobody exited $?"
	jq -e '.probes.splice_file_unpriv | .verdict == "skipped" and (.detail | test("not root"))' \
		"$TMP/nobody.json" >/dev/null || fail "as nobody: splice_file_unpriv not 'skipped: not root'"
fi
# Bad flags are usage errors.
"$ZCBENCH" probe --block-ms 5 >/dev/null 2>&1; [ $? = 2 ] || fail "--block-ms 5 should exit 2"
"$ZCBENCH" probe --bogus >/dev/null 2>&1; [ $? = 2 ] || fail "--bogus should exit 2"
after=$(ls /var/tmp | grep -c '^zcbench-probe-' || true)
[ "$after" = "$before" ] || fail "probe left files in /var/tmp"
echo "pass: probe verdicts, emulated modes copy, skips give reasons"
