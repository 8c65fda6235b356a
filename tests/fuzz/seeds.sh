# Sourced by fuzz.sh and check.sh: the seed inputs of each harness, from the
# files the project ships (workloads, hosts, results fixtures) and the extra
# seeds in tests/fuzz/corpus/NAME, copied into one folder.
# zc_fuzz_seeds NAME DIR: fill DIR with NAME's seeds.
zc_fuzz_seeds() {
	local name=$1 dir=$2 f
	mkdir -p "$dir"
	case $name in
	workload) set -- workloads/*.ini tests/fuzz/corpus/workload/* ;;
	host) set -- hosts/*.ini hosts/*.example tests/fuzz/corpus/host/* ;;
	role_report) set -- tests/fuzz/corpus/role_report/* ;;
	http) set -- tests/fuzz/corpus/http/* ;;
	outpath) set -- tests/fuzz/corpus/outpath/* ;;
	*) set -- results/fixtures/*.json tests/fuzz/corpus/results/* ;;
	esac
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr / _)"
	done
}
# The inputs that once crashed a harness: replayed by make check.
zc_fuzz_regressions() {
	ls tests/fuzz/regressions/"$1"/* 2>/dev/null
}
