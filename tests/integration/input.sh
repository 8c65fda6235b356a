#!/usr/bin/env bash
# Issue 13's input holes, each through the command line: nothing malformed is
# misread, no special file spins or blocks, every refusal exits 2 naming the
# file, line and key (or the command line), and the readers check types.
# Every command runs under `timeout`: a hang fails the check instead of the
# whole script.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "python3 missing (make deps)"
W=workloads/smoke.ini F=results/fixtures/base.json
# run RC-FILE ERR-FILE zcbench-args...: exit code into $rc, stderr kept.
z() { local err=$1; shift; timeout -k 2 10 "$ZCBENCH" "$@" >"$TMP/out" 2>"$err"; rc=$?; }
refused() { # refused "what" ERRFILE REGEX: exit 2 and the message matches
	local what=$1 err=$2 re=$3
	if [ "$rc" -eq 2 ] && grep -Eq -- "$re" "$err"; then ok "$what"
	else bad "$what (exit $rc, wanted 2 and /$re/): $(head -c 300 "$err")"; fi
}

# --- workload files (item 5, 7, 10, 12) -----------------------------------
python3 - "$TMP" <<'EOF'
import sys
t = sys.argv[1]
# A key at the end of a long comment line must stay a comment (inih split it).
open(t + '/longcomment.ini', 'w').write(
    '[workload]\n; ' + 'c' * 197 + ' sink_seed = 5\n[run a]\ntopology = direct\n'
    'duration = 0.1\nwarmup = 0\nrepetitions = 1\n')
# A long name: refused whole, never split into another key.
open(t + '/longname.ini', 'w').write(
    '[workload]\nname = ' + 'n' * 200 + 'sink = splice-null\n[run a]\ntopology = direct\n')
open(t + '/nul.ini', 'wb').write(b'[run a]\ntopology = direct\nchunk = 64k\0garbage\n')
open(t + '/latin1.ini', 'wb').write(b'[workload]\nname = caf\xe9\n[run a]\ntopology = direct\n')
open(t + '/indent.ini', 'w').write('[run a]\ntopology = direct\nsource = send\n  chunk = 4k\n')
EOF
z "$TMP/e" run "$TMP/longcomment.ini" --out "$TMP/lc"
f=$(result_in "$TMP/lc")
check "long comment line: the run ran (exit $rc)" [ "$rc" -eq 0 ]
check "long comment line: the key inside it took no effect" \
	jq -e '.runs[0].options.sink_seed == -1 and .runs[0].status == "ok"' "${f:-/dev/null}" >/dev/null
z "$TMP/e" run "$TMP/longname.ini"
refused "long name value refused, naming the line" "$TMP/e" "longname.ini:2: key 'name': longer than"
z "$TMP/e" run "$TMP/nul.ini"
refused "NUL byte refused with its line" "$TMP/e" "nul.ini:3: a NUL byte"
z "$TMP/e" run "$TMP/latin1.ini"
refused "invalid UTF-8 refused with its line" "$TMP/e" "latin1.ini:2: byte 0xe9 that is not UTF-8"
z "$TMP/e" run "$TMP/indent.ini" --out "$TMP/ind" --duration 0.1 --warmup 0 --repetitions 1
f=$(result_in "$TMP/ind")
check "an indented key is a key, not folded into the previous value" \
	jq -e '.runs[0].key.chunk == 4096' "${f:-/dev/null}" >/dev/null
mkdir "$TMP/dir.ini"
z "$TMP/e" run "$TMP/dir.ini"
refused "a directory as workload says so" "$TMP/e" "dir.ini: is a directory"
for dev in /dev/zero /dev/urandom; do
	z "$TMP/e" run "$dev"
	refused "run $dev refused at once" "$TMP/e" "$dev: is a character device, not a regular file"
	z "$TMP/e" run "$W" --host "$dev"
	refused "--host $dev refused at once" "$TMP/e" "$dev: is a character device"
done
mkfifo "$TMP/fifo"
z "$TMP/e" run "$TMP/fifo"
refused "a FIFO as workload refused without blocking" "$TMP/e" "fifo: is a FIFO, not a regular file"
z "$TMP/e" run "$W" --host "$TMP/fifo"
refused "a FIFO as host file refused without blocking" "$TMP/e" "fifo: is a FIFO"

# --- settings that cannot work (item 9) ------------------------------------
w() { printf "$1" >"$TMP/c.ini"; z "$TMP/e" run "$TMP/c.ini" "${@:2}"; }
w '[run a]\ntopology = direct\nproxy = splice\n'
refused "direct with a proxy key: file:line:key and why" "$TMP/e" \
	"c.ini:3: \[run a\]: key 'proxy': topology = direct has no proxy"
w '[run a]\nsource = vmsplice\n'
refused "a source mode without a topology" "$TMP/e" \
	"c.ini:2: \[run a\]: key 'source': source = vmsplice without a topology runs topology = proxy"
w '[run a]\ntopology = direct\ntail = 0\n'
refused "tail = 0 names tail and why" "$TMP/e" "c.ini:3: \[run a\]: key 'tail': 0 s is too short"
w '[run a]\ntopology = direct\n' --tail=0
refused "--tail=0 blamed on the command line" "$TMP/e" "^zcbench: error: command line: --tail: 0 s is too short"
w '[run a]\ntopology = direct\nsource = tee\nperiod = 2M\n'
refused "period with tee (ignored) refused" "$TMP/e" "c.ini:4: \[run a\]: key 'period': source tee re-sends"
w '[run a]\ntopology = direct\nsource = tee\nchunk = 1G\n'
# CAP_SYS_RESOURCE (bit 24 of CapEff) lifts fs.pipe-max-size.
eff=$(awk '/^CapEff/ { print $2 }' /proc/self/status)
if (( (0x$eff >> 24) & 1 )) || [ "$(cat /proc/sys/fs/pipe-max-size)" -ge $((1 << 30)) ]; then
	ok "chunk 1G with tee: this process may size such a pipe (skipped)"
else
	refused "chunk 1G with tee refused at parse time" "$TMP/e" \
		"c.ini:4: \[run a\]: key 'chunk': source tee keeps the chunk in one pipe"
fi
w '[run a]\ntopology = direct\n' --counters=bogus
refused "--counters=bogus blamed on the command line" "$TMP/e" "^zcbench: error: command line: --counters: 'bogus'"
printf '[source]\ncpu = 4095\n' >"$TMP/h.ini"
z "$TMP/e" run "$W" --host "$TMP/h.ini"
refused "cpu = 4095 refused at parse time" "$TMP/e" "h.ini:2: \[source\] key 'cpu': CPU 4095 is not one"
printf '[host]\nname = caf\xc3\xa9\n' >"$TMP/h.ini"
z "$TMP/e" run "$W" --host "$TMP/h.ini"
refused "a refused non-ASCII character is printed whole" "$TMP/e" "character 'é' not allowed"

# --- the command line (item 6, 8) -------------------------------------------
z "$TMP/e" run "$W" --only "$(printf 'caf\xe9')"
refused "an argument that is not UTF-8 is refused" "$TMP/e" "command line: argument 3 is not UTF-8"
long=$TMP/$(printf 'd%.0s' $(seq 250))/$(printf 'e%.0s' $(seq 250))/$(printf 'f%.0s' $(seq 250))/$(printf 'g%.0s' $(seq 250))
mkdir -p "$long"
timeout -k 2 60 "$ZCBENCH" run "$W" --only src-send --duration 0.05 --warmup 0 --repetitions 1 \
	--out "$long" >"$TMP/out" 2>"$TMP/e"
rc=$?
check "--out over 1000 bytes: not exit 0 (got $rc)" [ "$rc" -ne 0 ]
check "--out over 1000 bytes: no results file cut short" [ -z "$(ls "$long")" ]
check "--out over 1000 bytes: says why" grep -q "File name too long" "$TMP/e"

# --- results readers (item 11, 12, 13) ---------------------------------------
j() { printf '%s' "$1" >"$TMP/r.json"; }
for cmd in report export compare plot before-after; do
	args=("$TMP/r.json")
	case $cmd in
	export) args=(--format csv "$TMP/r.json") ;;
	compare) args=("$F" "$TMP/r.json") ;;
	plot) args=(--out "$TMP/plots" "$TMP/r.json") ;;
	esac
	j '{"schema":"zcbench-results","schema_version":"1abc","runs":[]}'
	z "$TMP/e" "$cmd" "${args[@]}"
	refused "$cmd: schema_version 1abc refused" "$TMP/e" "r.json: schema_version: '1abc' is not MAJOR.MINOR"
	j '{"schema":"zcbench-results","schema_version":"1.2","runs":[1,2]}'
	z "$TMP/e" "$cmd" "${args[@]}"
	refused "$cmd: runs of numbers refused" "$TMP/e" "r.json: runs: element 0 is an integer, expected an object"
	j '{"schema":"zcbench-results","schema_version":"1.2","runs":[{"key":{},"samples":"x"}]}'
	z "$TMP/e" "$cmd" "${args[@]}"
	refused "$cmd: samples as a string refused" "$TMP/e" "r.json: runs\[0\].samples: a string, expected an array"
	j '{"schema":"zcbench-results","schema_version":"1.2","runs":[{"key":{},"samples":[{"status":"ok","gbps":"9"}]}]}'
	z "$TMP/e" "$cmd" "${args[@]}"
	refused "$cmd: a metric as a string refused" "$TMP/e" \
		"r.json: runs\[0\].samples\[0\].gbps: a string, expected a number or null"
	z "$TMP/e" "$cmd" "${args[@]/$TMP\/r.json//dev/zero}"
	refused "$cmd: /dev/zero refused at once" "$TMP/e" "/dev/zero: is a character device"
	z "$TMP/e" "$cmd" "${args[@]/$TMP\/r.json/$TMP/fifo}"
	refused "$cmd: a FIFO refused without blocking" "$TMP/e" "fifo: is a FIFO"
done
# Was a heap-use-after-free (ASan): the error printed the freed schema string.
j '{"schema":"zcbench-resultz","schema_version":"1.1","runs":[]}'
z "$TMP/e" before-after "$TMP/r.json"
refused "before-after: a wrong schema named, from memory still owned" "$TMP/e" \
	"r.json: not a zcbench results file \(schema 'zcbench-resultz'"
if grep -q "AddressSanitizer" "$TMP/e"; then bad "before-after: a sanitizer report"; else ok "before-after: no sanitizer report"; fi
for f in results/fixtures/*.json; do
	z "$TMP/e" report "$f"
	check "fixture $f still loads" [ "$rc" -eq 0 ]
done
finish
