#!/usr/bin/env bash
# "A transport is one new file plus one line" (bench/README.md), shown: in a
# copy of the tree, a throwaway transport copied from the local one under
# another name, with a host-file key of its own, is added as one file in
# bench/transport/ and one line in bench/transport/transports.h. The copy
# builds; a host file naming it and its key runs a short smoke workload with
# verified bytes, the key reaches the results file and `zcbench keys`, and an
# unknown key is refused with file:line.
. "$(dirname "$0")/../lib.sh"
command -v make >/dev/null && command -v cc >/dev/null || skip "no make or cc"
tree=$TMP/tree
mkdir -p "$tree"
# The tracked tree as it is now (and new files not yet committed, not ignored ones).
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tree" 2>/dev/null ||
		fail "copying the tracked tree"
else
	tar --exclude=./build --exclude=./results -cf - . | tar -xf - -C "$tree" || fail "copying the tree"
fi
cd "$tree" || fail "no copy"
cp bench/transport/transports.h "$TMP/transports.h.orig"

# The new file: local.c renamed, plus a key table over its own state and its
# part of the results "host" object.
sed -e 's/zc_transport_local\b/zc_transport_scratch/' -e 's/\.name = "local",/.name = "scratch",/' \
	bench/transport/local.c >bench/transport/scratch.c
cat >"$TMP/keys.c" <<'C'
struct scratch {
	char greeting[32];
};

static const struct zc_opt scratch_keys[] = {
	{ "greeting", ZC_OPT_STR, "hello", ZC_OPT_AT(struct scratch, greeting), ZC_HOST_KEY,
	  .plain = "-", .what = "a word", .help = "a word the results file keeps" },
};

static void scratch_json(const struct zc_host *h, json_t *host, json_t *const roles[ZC_ROLE_NR])
{
	(void)roles;
	json_object_set_new(host, "greeting",
			    json_string(((const struct scratch *)h->priv)->greeting));
}

C
awk -v keys="$TMP/keys.c" '
	/^const struct zc_transport zc_transport_scratch = \{/ { while ((getline l < keys) > 0) print l }
	{ print }
	/\.name = "scratch",/ {
		print "\t.keys = scratch_keys,"
		print "\t.nkeys = ZC_ARRAY_SIZE(scratch_keys),"
		print "\t.priv_size = sizeof(struct scratch),"
		print "\t.json = scratch_json,"
	}' bench/transport/scratch.c >"$TMP/scratch.c" && mv "$TMP/scratch.c" bench/transport/scratch.c
grep -q 'zc_transport_scratch = {' bench/transport/scratch.c && grep -q '.keys = scratch_keys' \
	bench/transport/scratch.c || fail "could not derive scratch.c from local.c"
# The one line.
sed -i '/^\tX(local)/a\	X(scratch)		\\' bench/transport/transports.h
added=$(diff "$TMP/transports.h.orig" bench/transport/transports.h | grep -c '^>')
removed=$(diff "$TMP/transports.h.orig" bench/transport/transports.h | grep -c '^<')
check "transports.h: one line added ($added added, $removed removed)" [ "$added" = 1 -a "$removed" = 0 ]

# Built without BPF (no vmlinux.h dump): this is about the transport.
make -s -j2 BPFTOOL= bench/zcbench >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; fail "the copy does not build"; }
Z=$tree/bench/zcbench

printf '[host]\nname = scratch-smoke\ntransport = scratch\ngreeting = hi-there\n' >"$TMP/h.ini"
"$Z" run workloads/smoke.ini --host "$TMP/h.ini" --only src-send --warmup 0.1 --duration 0.2 \
	--repetitions 1 --out "$TMP/out" >"$TMP/run.log" 2>&1
rc=$?
f=$(result_in "$TMP/out")
check "smoke run over transport = scratch: exit 0 (got $rc)" [ "$rc" -eq 0 ]
[ -n "$f" ] || { cat "$TMP/run.log"; fail "no results file"; }
check "results name the transport" [ "$(jq -r .host.transport "$f")" = scratch ]
check "its key reached the results file" [ "$(jq -r .host.greeting "$f")" = hi-there ]
verified() {
	jq -e '(.runs | length) == 1 and .runs[0].status == "ok" and .runs[0].verified
		and .runs[0].samples[0].roles.sink.bytes_total > 0' "$f" >/dev/null
}
check "one run, ok, with verified bytes" verified
"$Z" keys >"$TMP/keys.txt"
check "zcbench keys lists the transport and its key" grep -q '^transport = scratch' "$TMP/keys.txt"
check "zcbench keys: greeting with its default" grep -q 'greeting = TEXT .*(default hello)' "$TMP/keys.txt"

printf '[host]\ntransport = scratch\ngreeting = hi\nbogus = 1\n' >"$TMP/bad.ini"
"$Z" run workloads/smoke.ini --host "$TMP/bad.ini" --out "$TMP/bad" >"$TMP/bad.log" 2>&1
rc=$?
check "unknown key: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "unknown key: file:line and key" grep -q "bad.ini:4: unknown key 'bogus' in \[host\]" "$TMP/bad.log"
printf '[host]\ntransport = scratch\ngreeting = a;b\n' >"$TMP/bad2.ini"
"$Z" run workloads/smoke.ini --host "$TMP/bad2.ini" --out "$TMP/bad" >"$TMP/bad2.log" 2>&1
check "its key is checked like any: exit 2, file:line" [ $? -eq 2 ]
check "its key is checked like any: the message" grep -q "bad2.ini:3: key 'greeting': 'a;b' is not a word" "$TMP/bad2.log"
check "nothing ran on bad input" [ ! -e "$TMP/bad" ]
finish
