#!/usr/bin/env bash
# Issue 30's input holes: what reaches a run is checked whole before it
# counts, and bad input is refused before anything starts.
#  F3  a proxy that flips a byte of a connection header (the flags, bytes
#      6-7, once passed) fails the run: exit 1, never verified.
#  M2  an empty item in any comma list (flags and workload keys) exits 2
#      naming the flag or file:line and key, never dropped silently.
#  M3  a file a workload names (object_sizes_file) that is no regular file,
#      or has a bad line, exits 2 naming file:line and key before any role
#      starts (no results folder).
#  M4  a netns netem value that is not finite or out of range, and an
#      interface with no address, exit 2 naming the host file, line and key
#      before any namespace is built.
#  Interrupted files: a results file a SIGKILLed controller left at
#      "running" reads as interrupted (report says why); a live run's file
#      still reads as running; the file on disk is left as it is.
# Every command runs under `timeout`: a hang fails the check instead of the
# whole script.
. "$(dirname "$0")/../lib.sh"
jqe() { jq -e "$@" >/dev/null 2>&1; }
# z ERRFILE zcbench-args...: exit code into $rc, stdout and stderr kept.
z() { local err=$1; shift; timeout -k 2 30 "$ZCBENCH" "$@" >"$TMP/out" 2>"$err"; rc=$?; }
refused() { # refused "what" ERRFILE REGEX: exit 2 and the message matches
	local what=$1 err=$2 re=$3
	if [ "$rc" -eq 2 ] && grep -Eq -- "$re" "$err"; then ok "$what"
	else bad "$what (exit $rc, wanted 2 and /$re/): $(head -c 300 "$err")"; fi
}
printf '[workload]\nwarmup = 0.1\nduration = 0.2\ntail = 0.1\nrepetitions = 1\nchunk = 64k\ntimeout = 10\nforeign_max = 100%%\n\n[run p]\ntopology = proxy\nproxy = copy\n' \
	>"$TMP/short.ini"

# --- F3: the connection header is checked whole at the sink ----------------
cc -std=gnu11 -O2 -Wall -D_GNU_SOURCE -o "$TMP/tamper" tests/tamper_proxy.c || fail "build tamper_proxy"
for b in 6 7; do
	ZC_TAMPER_HDR=$b ZC_TAMPER_HOW=none z "$TMP/h$b.err" run "$TMP/short.ini" \
		--exec-proxy "$TMP/tamper" --out "$TMP/h$b"
	f=$(result_in "$TMP/h$b")
	check "header byte $b flipped: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "header byte $b flipped: failed, not verified, the sink says why" jqe \
		'.runs[0].status == "failed" and .runs[0].verified != true and
		 (.runs[0].reason | test("no valid zcbench connection header"))' "${f:-/dev/null}"
done
# Untouched, the same proxy passes: the checks above are the header's.
ZC_TAMPER_HOW=none z "$TMP/h.err" run "$TMP/short.ini" --exec-proxy "$TMP/tamper" --out "$TMP/h"
check "header untouched: exit 0 and verified (got $rc)" jqe '.runs[0].verified == true' \
	"$(result_in "$TMP/h")"

# --- M2: empty comma-list items ---------------------------------------------
F=results/fixtures/scale.json
for t in 100G,, ,100G 100G,,40G; do
	z "$TMP/e" size --target="$t" "$F"
	refused "size --target=$t: exit 2 naming the flag" "$TMP/e" "--target: '$t': item [0-9]+ is empty"
done
z "$TMP/e" size --target="100G, 40G" "$F"
check "size --target='100G, 40G' (blanks around items) still taken (exit $rc)" [ "$rc" -eq 0 ]
z "$TMP/e" compare --metrics=gbps, results/fixtures/base.json results/fixtures/new.json
refused "compare --metrics=gbps,: exit 2 naming the flag" "$TMP/e" "--metrics: 'gbps,': item 2 is empty"
z "$TMP/e" run "$TMP/short.ini" --chunk=64k,,1M --out "$TMP/x"
refused "run --chunk=64k,,1M: exit 2 naming the flag" "$TMP/e" "command line: --chunk: .*item 2 is empty"
printf '[workload]\nduration = 1\n\n[run x]\nchunk = 64k,\n' >"$TMP/list.ini"
z "$TMP/e" run "$TMP/list.ini" --out "$TMP/x"
refused "workload chunk = 64k,: exit 2 naming file:line and key" "$TMP/e" "list.ini:5: key 'chunk': .*item 2 is empty"
printf '[workload]\nduration = 1\n\n[run x]\ntopology = direct\nsource = msg-zerocopy\nmode_opts = msg_zerocopy_max_outstanding=32,,\n' >"$TMP/mo.ini"
z "$TMP/e" run "$TMP/mo.ini" --out "$TMP/x"
refused "workload mode_opts with an empty item: exit 2 naming file:line and key" "$TMP/e" "mo.ini:7: .*mode_opts: .*item 2 is empty"
check "no results folder made on bad input" [ ! -e "$TMP/x" ]

# --- M3: files a workload names are read while it is validated -------------
printf '1k\n# a comment\n64k\nbogus\n' >"$TMP/sizes"
for sf in /dev/zero "$TMP/sizes" "$TMP/nosuch"; do
	{ rr_workload sizes; printf '\n[run d]\ntopology = direct\nobject_sizes_file = %s\n' "$sf"; } \
		>"$TMP/rr.ini"
	z "$TMP/e" run "$TMP/rr.ini" --out "$TMP/rr"
	case $sf in
	/dev/zero) re="rr.ini:12: \[run d\]: key 'object_sizes_file': /dev/zero: is a character device" ;;
	*/sizes) re="rr.ini:12: \[run d\]: key 'object_sizes_file': .*/sizes:4: 'bogus' is not a size" ;;
	*) re="rr.ini:12: \[run d\]: key 'object_sizes_file': .*/nosuch: No such file" ;;
	esac
	refused "object_sizes_file = ${sf##*/}: exit 2 naming file:line and key" "$TMP/e" "$re"
	check "object_sizes_file = ${sf##*/}: refused before anything ran" [ ! -e "$TMP/rr" ]
done

# --- M4: host-file values checked before namespaces or tc -------------------
for kv in "netem_loss = nan%" "netem_loss = inf%" "netem_loss = 101%" "netem_delay = 1e9s" \
	"netem_delay = nanms"; do
	key=${kv%% *}
	sed "s/^;\?$key = .*/$kv/" hosts/netns.ini >"$TMP/ns.ini"
	line=$(grep -n "^$key = " "$TMP/ns.ini" | cut -d: -f1)
	[ -n "$line" ] || fail "hosts/netns.ini has no $key line in [host]"
	z "$TMP/e" run "$TMP/short.ini" --host "$TMP/ns.ini" --out "$TMP/ns"
	refused "$kv: exit 2 naming the host file, line and key" "$TMP/e" "ns.ini:$line: key '$key'"
	check "$kv: refused before anything ran (no results, no namespace, no tc)" \
		bash -c '[ ! -e "$1" ] && ! grep -q "zcb-[0-9]*-" "$2"' _ "$TMP/ns" "$TMP/e"
done
# An interface with no address (a fresh network namespace's own lo, and a
# veth there), and one that is not here at all.
printf '[host]\nname = noaddr\n[sink]\ninterface = zcnosuch0\n' >"$TMP/if.ini"
z "$TMP/e" run "$TMP/short.ini" --host "$TMP/if.ini" --out "$TMP/if"
refused "interface that is not here: exit 2 naming file:line and key" "$TMP/e" \
	"if.ini:4: \[sink\] key 'interface': no interface zcnosuch0 here"
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && unshare -n true 2>/dev/null; then
	printf '[host]\nname = noaddr\ninterface = lo\n' >"$TMP/lo.ini"
	printf '[host]\nname = noaddr\n[sink]\ninterface = zcb0\n' >"$TMP/veth.ini"
	for h in lo veth; do
		timeout -k 2 30 unshare -n sh -c 'ip link add zcb0 type veth peer name zcb1 &&
			ip link set zcb0 up && exec "$@"' _ "$ZCBENCH" run "$TMP/short.ini" \
			--host "$TMP/$h.ini" --out "$TMP/$h" >"$TMP/out" 2>"$TMP/e"
		rc=$?
		case $h in
		lo) re="lo.ini:3: \[source\] key 'interface': lo has no address here" ;;
		veth) re="veth.ini:4: \[sink\] key 'interface': zcb0 has no address here" ;;
		esac
		refused "interface $h without an address: exit 2 naming file:line and key" "$TMP/e" "$re"
		check "interface $h without an address: refused before anything ran" [ ! -e "$TMP/$h" ]
	done
else
	echo "skip: an interface without an address needs root and unshare -n"
fi

# --- a file a killed controller left at "running" ----------------------------
printf '[workload]\nwarmup = 0.1\nduration = 0.3\ntail = 0.1\nrepetitions = 200\nchunk = 64k\ntimeout = 10\nforeign_max = 100%%\n\n[run p]\ntopology = proxy\nproxy = copy\n' \
	>"$TMP/long.ini"
"$ZCBENCH" run "$TMP/long.ini" --out "$TMP/k" >"$TMP/k.out" 2>&1 &
ctl=$!
on_exit "kill -9 $ctl 2>/dev/null"
wait_sample "$TMP/k" || fail "no sample saved (exit: $(cat "$TMP/k.out" | tail -n 3))"
check "the file names its controller" jqe ".controller.pid == $ctl and (.controller.boot_id | length) > 0" "$f"
z "$TMP/e" report "$f"
check "live run: report reads it as running" grep -q "status running$" "$TMP/out"
kill -9 "$ctl"
wait "$ctl" 2>/dev/null
check "killed: the file on disk still says running" jqe '.status == "running"' "$f"
z "$TMP/e" report "$f"
check "killed: report exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "killed: report says interrupted, and why" \
	grep -q "status interrupted (its controller (pid $ctl) is gone: killed before it could finish the file)" "$TMP/out"
# Another reader: the dashboard's run table (plot), where gnuplot is.
if command -v gnuplot >/dev/null; then
	z "$TMP/e" plot --out "$TMP/plot" "$f"
	check "killed: plot's dashboard shows the run interrupted (exit $rc)" \
		bash -c 'grep -q "<td>interrupted" "$1" && ! grep -q "<td>running" "$1"' _ "$TMP/plot/index.html" ||
		{ cat "$TMP/e"; grep -o '<td>[a-z]*' "$TMP/plot/index.html" | sort | uniq -c; }
else
	echo "skip: plot's dashboard needs gnuplot"
fi

finish
