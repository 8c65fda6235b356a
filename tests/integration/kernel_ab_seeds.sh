#!/usr/bin/env bash
# make kernel-ab-seeds' script without qemu: a stand-in zcbench records which
# pairs it boots. A pair already measured from the same images is kept; a
# pair whose image changed (another sha256 in its kernel-build record) or
# whose new side failed is run again; ZC_SEEDS_PAIRS picks pairs and refuses
# unknown ones; a guest without pipebench output still gets its table.
. "$(dirname "$0")/../lib.sh"
K=$TMP/kernels OUT=$TMP/out
mkdir -p "$K"
for n in stock safin-v1 falcato-v1; do
	echo "image $n" >"$K/$n-bzImage"
	jq -n --arg s "$(sha256sum <"$K/$n-bzImage" | cut -d' ' -f1)" '{image: {sha256: $s}}' >"$K/$n-bzImage.json"
done
# kernel-ab: the files the script reads, both sides ok unless FAKE_FAIL_NEW
# names this folder; the new side has no pipebench file when FAKE_NO_PB is set.
# before-after: its arguments, so the test sees which files it was given.
cat >"$TMP/zcbench" <<'EOF'
#!/usr/bin/env bash
cmd=$1; shift
if [ "$cmd" = before-after ]; then echo "before-after $*"; exit 0; fi
while [ $# -gt 0 ]; do
	case $1 in --base) b=$2; shift ;; --new) n=$2; shift ;; --out) o=$2; shift ;; esac
	shift
done
echo "${o##*/}" >>"$FAKE_LOG"
mkdir -p "$o"
ok=true; [ "${FAKE_FAIL_NEW:-}" = "${o##*/}" ] && ok=false
for s in base new; do
	echo '{"fingerprint": {"label": "L"}}' >"$o/$s.json"
	[ -n "${FAKE_NO_PB:-}" ] && [ $s = new ] || echo '{}' >"$o/$s-pipebench.json"
done
echo '  x 1 1' >"$o/fingerprints.txt"
jq -n --arg b "$b" --arg n "$n" --argjson ok $ok --slurpfile rb "$b.json" --slurpfile rn "$n.json" \
	'{accel: "tcg", base: {ok: true, image: $b, release: "r0", sysctls: {}, boot_run_s: 1, build: $rb[0]},
	  new: {ok: $ok, image: $n, release: "r1", sysctls: {}, boot_run_s: 1, build: $rn[0]}}' >"$o/kernel-ab.json"
[ $ok = true ]
EOF
chmod +x "$TMP/zcbench"
export FAKE_LOG=$TMP/booted
seeds() { ZCBENCH=$TMP/zcbench bash tests/guest/kernel-ab-seeds.sh "$K" "$OUT" >"$TMP/o" 2>&1; }
booted() { sort "$FAKE_LOG" 2>/dev/null | paste -sd' ' -; }

ZC_SEEDS_PAIRS=stock-vs-safin seeds
check "ZC_SEEDS_PAIRS=stock-vs-safin: exit 0" [ $? -eq 0 ]
check "only stock-vs-safin booted (got: $(booted))" [ "$(booted)" = stock-vs-safin ]
: >"$FAKE_LOG"
seeds
check "all pairs: exit 0" [ $? -eq 0 ]
check "stock-vs-safin kept, the two Falcato pairs booted (got: $(booted))" \
	[ "$(booted)" = "stock-vs-falcato-snw0 stock-vs-falcato-snw1" ]
check "the summary has all three pairs" [ "$(grep -c '^=====' "$OUT/summary.txt")" -eq 3 ]
check "before-after got both pipebench files" grep -q 'base-pipebench.json --after .*new-pipebench.json' "$OUT/summary.txt"
: >"$FAKE_LOG"
seeds
check "nothing booted a third time (got: $(booted))" [ -z "$(booted)" ]

# Falcato rebuilt: its record names another image, so its two pairs run again.
echo "image falcato-v1 rebuilt" >"$K/falcato-v1-bzImage"
jq -n --arg s "$(sha256sum <"$K/falcato-v1-bzImage" | cut -d' ' -f1)" '{image: {sha256: $s}}' >"$K/falcato-v1-bzImage.json"
: >"$FAKE_LOG"
FAKE_FAIL_NEW=stock-vs-falcato-snw1 FAKE_NO_PB=1 seeds
check "a failed side: exit 1" [ $? -eq 1 ]
check "a new Falcato image: both Falcato pairs booted again (got: $(booted))" \
	[ "$(booted)" = "stock-vs-falcato-snw0 stock-vs-falcato-snw1" ]
check "no pipebench file: before-after without them, and says why" \
	grep -q 'no pipebench patterns' "$OUT/summary.txt"
: >"$FAKE_LOG"
seeds
check "only the pair whose new side failed booted again (got: $(booted))" [ "$(booted)" = stock-vs-falcato-snw1 ]

ZC_SEEDS_PAIRS="stock-vs-nope" seeds
check "unknown pair: exit 2" [ $? -eq 2 ]
check "unknown pair named" grep -q "no pair 'stock-vs-nope'" "$TMP/o"
rm "$K/safin-v1-bzImage"
ZC_SEEDS_PAIRS=stock-vs-falcato-snw0 seeds
check "a missing image of a pair not asked for does not stop the others" [ $? -eq 0 ]
ZC_SEEDS_PAIRS=stock-vs-safin seeds
check "a missing image of a pair asked for: exit 2" [ $? -eq 2 ]
finish
