# Sourced by the bench-* scripts that run one workload on loopback and then
# across network namespaces (bench-netns.sh, bench-scale.sh), not run.
# bench_hosts NAME WORKLOAD [zcbench run args...]: runs WORKLOAD with
# hosts/loopback.ini then hosts/netns.ini (skipped, and said, without root),
# the table on stdout; the results files in the array "files". Exits on a
# run that wrote no results, and with 130 on Ctrl-C.
ZCBENCH=${ZCBENCH:-bench/zcbench}
OUT=${OUT:-results}
files=()
bench_hosts() {
	local name=$1 workload=$2 host log rc f
	shift 2
	for host in loopback netns; do
		if [ "$host" = netns ] && [ "$(id -u)" -ne 0 ]; then
			echo "== netns: skipped (network namespaces need root)"
			continue
		fi
		echo "== $host (hosts/$host.ini)"
		log=$(mktemp)
		"$ZCBENCH" run "$workload" --host "hosts/$host.ini" --out "$OUT" "$@" | tee "$log"
		rc=${PIPESTATUS[0]}
		f=$(sed -n 's/^results: \([^ ]*\).*/\1/p' "$log")
		rm -f "$log"
		[ -n "$f" ] || { echo "$name: the $host run wrote no results (exit $rc)" >&2; exit 1; }
		[ "$rc" -eq 130 ] && exit 130
		files+=("$f")
	done
}
