#!/usr/bin/env bash
# Where zcbench writes (lib/outpath.h): every command that writes a file
# refuses, with exit 2 and the reason, to replace what is not a regular file
# (a device, a FIFO, a socket, a folder), follows a symbolic link only to a
# regular file and says so, and takes - for standard output where it writes
# one stream. The nodes are made in $TMP (as root, mknod; as anyone else the
# FIFO and socket cases still run): the system's own are never touched.
. "$(dirname "$0")/../lib.sh"
B=results/fixtures/base.json
command -v python3 >/dev/null || skip "python3 missing (make deps)"
N=$TMP/nodes
mkdir -p "$N"
mkfifo "$N/fifo" || fail "mkfifo"
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$N/sock" ||
	fail "unix socket"
mkdir "$N/dir"
ln -s /proc/self/fd/1 "$N/stdout"
nodes="fifo sock dir"
if mknod "$N/full" c 1 7 2>/dev/null; then nodes="full $nodes"; else echo "# not root: no device node"; fi
# The type of each node, to show none was replaced.
types() { for n in $nodes; do printf '%s=%s ' "$n" "$(stat -c %F "$N/$n")"; done; }
before=$(types)

# refused WHAT CMD...: exit 2, a reason naming the path, nothing on stdout.
refused() {
	local what=$1
	shift
	timeout 60 "$@" >"$TMP/o" 2>"$TMP/e"
	local rc=$?
	check "$what: exit 2 (got $rc: $(head -c 300 "$TMP/e"))" [ "$rc" -eq 2 ]
	check "$what: the reason names the path" grep -q "$N/" "$TMP/e"
	check "$what: nothing on standard output" [ ! -s "$TMP/o" ]
}

# export --out: the issue's reproducer is --out /dev/full (here a copy of it).
for n in $nodes; do
	refused "export --out $n" "$ZCBENCH" export --format csv --out "$N/$n" "$B"
done
"$ZCBENCH" export --format csv --out "$N/fifo" "$B" 2>"$TMP/e"
check "a FIFO is named as one" grep -q 'is a FIFO, not a regular file' "$TMP/e"
# /dev/stdout is a link to /proc/self/fd/1: on a pipe, refused (- is the way).
"$ZCBENCH" export --format csv --out "$N/stdout" "$B" 2>"$TMP/e" | cat >"$TMP/o"
rc=${PIPESTATUS[0]}
check "export --out a link to a pipe: exit 2 (got $rc)" [ "$rc" -eq 2 ]
check "export --out a link to a pipe: said" grep -q 'symbolic link to a FIFO' "$TMP/e"
check "export --out a link to a pipe: nothing written" [ ! -s "$TMP/o" ]
refused "export --out in a missing folder" "$ZCBENCH" export --format csv --out "$N/no/x.csv" "$B"
# - is standard output.
"$ZCBENCH" export --format csv --out - "$B" >"$TMP/dash.csv" 2>"$TMP/e"
check "export --out -: exit 0" [ $? -eq 0 ]
check "export --out -: the csv on standard output" grep -q '^date,kernel,host' "$TMP/dash.csv"
check "export --out -: no file called -" [ ! -e ./- ]
# A link to a regular file: its target is written, the link stays, and it is said.
echo old >"$TMP/target.csv"
ln -s "$TMP/target.csv" "$TMP/link.csv"
"$ZCBENCH" export --format csv --out "$TMP/link.csv" "$B" 2>"$TMP/e"
check "export through a link: exit 0" [ $? -eq 0 ]
check "export through a link: the link stays a link" [ -L "$TMP/link.csv" ]
check "export through a link: its target holds the csv" grep -q '^date,kernel' "$TMP/target.csv"
check "export through a link: said" grep -q 'symbolic link: writing its target' "$TMP/e"
# A regular file is replaced whole (the old one is not left half written).
printf 'old\n%.0s' $(seq 5000) >"$TMP/reg.csv"
"$ZCBENCH" export --format csv --out "$TMP/reg.csv" "$B"
check "export over a regular file: replaced" cmp -s "$TMP/reg.csv" "$TMP/dash.csv"

# Folders: run, noise, plot, scale, profile and pipebench write into one.
for n in $nodes; do
	[ "$n" = dir ] && continue
	refused "run --out $n" "$ZCBENCH" run workloads/smoke.ini --out "$N/$n"
	refused "plot --out $n" "$ZCBENCH" plot --out "$N/$n" "$B"
	refused "scale --plot $n" "$ZCBENCH" scale --plot "$N/$n" "$B"
	refused "profile --out $n" "$ZCBENCH" profile --folded results/fixtures/profile/proxy-splice-65536.folded --out "$N/$n"
	refused "pipebench --out $n" "$ZCBENCH" pipebench --out "$N/$n"
done
refused "noise --noise-out fifo" "$ZCBENCH" noise workloads/smoke.ini --noise-out "$N/fifo" \
	--out "$TMP/noise"
refused "kernel-build --out fifo" "$ZCBENCH" kernel-build --tree "$TMP" --out "$N/fifo"
refused "kernel-build --out.json a folder" bash -c "mkdir -p '$N/img.json' &&
	'$ZCBENCH' kernel-build --tree '$TMP' --out '$N/img'"

# Inside a plot folder: a FIFO or a link where a picture's CSV goes is not
# written through, and plot neither hangs nor touches the link's target.
if command -v gnuplot >/dev/null; then
	P=$TMP/plot
	mkdir -p "$P"
	mkfifo "$P/bars.csv"
	echo outside >"$TMP/outside"
	ln -s "$TMP/outside" "$P/core.csv"
	timeout 120 "$ZCBENCH" plot --out "$P" "$B" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	check "plot over a FIFO and a link: fails, does not hang (exit $rc)" \
		[ "$rc" -ne 0 -a "$rc" -ne 124 ]
	check "plot: the FIFO stays a FIFO" [ -p "$P/bars.csv" ]
	check "plot: the link stays a link" [ -L "$P/core.csv" ]
	check "plot: the link's target is untouched" grep -qx outside "$TMP/outside"
	check "plot: no temp file left" [ -z "$(ls -A "$P" | grep '^\.')" ]
else
	echo "# gnuplot missing: the plot-folder case is not run"
fi

check "every node is what it was ($(types))" [ "$(types)" = "$before" ]
check "no temp file left beside the nodes" [ -z "$(ls -A "$N" | grep '^\.')" ]
finish
