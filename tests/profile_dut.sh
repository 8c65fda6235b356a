# Sourced (after tests/lib.sh): profile the device under test of a `zcbench
# run` in progress from outside, with `zcbench profile`, until the profile
# is wired into run's window edges. For each run key (topology, modes,
# chunk, pipe size) the first DUT process seen is profiled once, starting
# DELAY seconds after it appeared (its warm-up) for DURATION seconds (inside
# its window), into OUTDIR/N/ (profile.json, stacks.folded, flamegraph.svg,
# and key: "topology source proxy sink chunk pipe_size").
#
# profile_duts RUNPID OUTDIR DELAY DURATION [BACKEND]   (returns when RUNPID has exited)
profile_duts() {
	local runpid=$1 out=$2 delay=$3 dur=$4 backend=${5:-auto} n=0 seen=" " jobs=()
	local pid args role topo src prx snk chunk pipe cpu key dut
	mkdir -p "$out"
	while kill -0 "$runpid" 2>/dev/null; do
		while read -r pid args; do
			role=$(awk '{print $2}' <<<"$args")
			opt() { grep -o -- "--$1=[^ ]*" <<<"$args" | head -n1 | cut -d= -f2-; }
			topo=$(opt topology)
			[ "$topo" = proxy ] && dut=proxy || dut=source
			[ "$role" = "$dut" ] || continue
			src=$(opt source) prx=$(opt proxy) snk=$(opt sink) chunk=$(opt chunk)
			pipe=$(opt pipe-size) cpu=$(opt cpu)
			[ "$topo" = proxy ] || prx=
			key="$topo $src ${prx:--} $snk $chunk $pipe"
			case $seen in *" [$key] "*) continue ;; esac
			seen="$seen[$key] "
			n=$((n + 1))
			mkdir -p "$out/$n"
			echo "$key" >"$out/$n/key"
			echo "$pid" >"$out/$n/pid"
			"$ZCBENCH" profile --cpus "$cpu" --delay "$delay" --duration "$dur" \
				--backend "$backend" --out "$out/$n" --comm "$pid" --json \
				>"$out/$n/summary.json" 2>"$out/$n/err" &
			jobs+=($!)
		done < <(ps -o pid=,args= --ppid "$runpid" 2>/dev/null)
		sleep 0.05
	done
	# Only our profiles: the caller waits for its run.
	[ ${#jobs[@]} -eq 0 ] || wait "${jobs[@]}"
}

# Is CPU-wide sampling possible here? Prints why not and returns 1.
profile_possible() {
	local p
	p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
	if [ "$(id -u)" != 0 ] && [ "$p" -gt 0 ]; then
		echo "CPU-wide sampling not permitted: kernel.perf_event_paranoid=$p and not root"
		return 1
	fi
	return 0
}
