#!/usr/bin/env bash
# The HTTP peers (issue 23) driven through bench/peers/ by build/peers_http_try:
# nginx serves 64k objects of zcbench's pattern with sendfile on and off
# (a fetched body equals the pattern; its workers pinned; its CPU time read
# over the process group), wrk's own figures parsed from its Lua script's
# JSON are sane (requests, no errors, p50 <= p99), h2load's summary too when
# installed, HAProxy in HTTP mode in front of nginx (splice and copy) when
# installed; afterwards no nginx, HAProxy or folder is left. Without nginx
# in PATH the reason names the package.
. "$(dirname "$0")/../lib.sh"
PATH=$PATH:/usr/sbin:/sbin
command -v nginx >/dev/null || skip "nginx missing (make deps installs nginx-light as an optional package)"
command -v wrk >/dev/null || skip "wrk missing (make deps installs it as an optional package)"
try=build/peers_http_try
[ -n "${ZC_ASAN:-}" ] && try=build/asan/peers_http_try
make --no-print-directory "$try" >"$TMP/make.log" 2>&1 || { cat "$TMP/make.log"; fail "cannot build $try"; }

# run NAME ARGS...: the try program's JSON in $TMP/NAME.json; fails the script if it failed.
run() {
	local name=$1 rc
	shift
	"$try" "$@" >"$TMP/$name.json" 2>"$TMP/$name.err"
	rc=$?
	[ "$rc" -eq 0 ] || { cat "$TMP/$name.json" "$TMP/$name.err"; fail "$name: peers_http_try $* exited $rc"; }
}
# gone NAME: nginx (and HAProxy) of that run stopped, reaped, folder removed.
gone() {
	local f=$TMP/$1.json pid dir hpid
	pid=$(jq -r .nginx.pid "$f") dir=$(jq -r .nginx.dir "$f") hpid=$(jq -r '.haproxy.pid // empty' "$f")
	check "$1: nginx stopped cleanly, its folder removed" jq -e '.nginx_stop == 0 and .nginx_dir_left == ""' "$f"
	# its process group (master and workers) empty, and no master of its folder anywhere
	check "$1: no nginx process left ($pid)" bash -c \
		"! kill -0 $pid 2>/dev/null && ! pgrep -g $pid >/dev/null && ! pgrep -f '^nginx: master process nginx -p $dir' >/dev/null"
	check "$1: no folder left ($dir)" test ! -e "$dir"
	[ -z "$hpid" ] || check "$1: no HAProxy left ($hpid)" bash -c "! kill -0 $hpid 2>/dev/null"
}
wrk_sane='.client | .requests > 0 and .bytes >= .requests * 65536 and .duration_s > 0.5
	and ([.errors[]] | add) == 0 and .latency_us.p50 > 0 and .latency_us.p50 <= .latency_us.p90
	and .latency_us.p90 <= .latency_us.p99 and .latency_us.p99 <= .latency_us.max'

# 1. nginx with sendfile on and off, wrk against it.
for sf in on off; do
	run "sendfile-$sf" --client wrk --sendfile "$sf" --size 65536 --seconds 1 --connections 4
	f=$TMP/sendfile-$sf.json
	check "sendfile $sf: nginx runs the config asked for" jq -e --arg sf "$sf" \
		'.nginx.config | test("\tsendfile " + $sf + ";") and test("daemon off;") and test("access_log off;")' "$f"
	check "sendfile $sf: master and its worker, the worker pinned to its CPU" jq -e \
		'.nginx.group == 2 and .nginx.worker_cpus == [(.nginx.cpu | tostring)]' "$f"
	check "sendfile $sf: a fetched body equals the pattern" jq -e '.body_ok and .body == "ok"' "$f"
	check "sendfile $sf: wrk exited 0, requests made, no error, p50 <= p90 <= p99 <= max" jq -e \
		".client_exit == \"exit code 0\" and ($wrk_sane)" "$f"
	check "sendfile $sf: wrk's printed rate agrees with its counts (within 1%)" jq -e \
		'.client | (.printed_requests_per_s / .requests_per_s) | . > 0.99 and . < 1.01' "$f"
	check "sendfile $sf: nginx's CPU time read over its group, growing" jq -e \
		'.nginx_cpu.ret == 0 and .nginx_cpu.threads == 2 and .mid.cpu_ret == 0
		 and .nginx_cpu.process_s > .mid.cpu_s and .mid.cpu_s >= 0' "$f"
	check "sendfile $sf: mid-run, nginx's sockets (its workers') wrote bytes, one per connection" jq -e \
		'.mid.tcp_ret == 0 and .mid.nsocks == 4 and .mid.written >= 65536 and .mid.written <= .client.bytes' "$f"
	gone "sendfile-$sf"
done

# 1b. What the worker calls, seen by strace (when it can attach): sendfile()
# with sendfile on; pread() into its buffers and no sendfile() with it off.
if command -v strace >/dev/null; then
	for sf in on off; do
		"$try" --client wrk --sendfile "$sf" --size 65536 --seconds 3 >"$TMP/st-$sf.json" 2>&1 &
		tp=$! worker=""
		for _ in $(seq 200); do # the try's nginx master, then its worker
			m=$(pgrep -P "$tp" nginx | head -n 1)
			[ -n "$m" ] && worker=$(pgrep -P "$m" | head -n 1)
			[ -n "$worker" ] && break
			sleep 0.05
		done
		sleep 0.5
		[ -n "$worker" ] && timeout -s INT 1 strace -c -p "$worker" >"$TMP/st-$sf.txt" 2>&1
		wait "$tp"
		if ! grep -q "total" "$TMP/st-$sf.txt" 2>/dev/null; then
			echo "# strace could not attach to nginx's worker: its checks skipped"
			break
		fi
		calls() { awk -v s="$1" '$NF == s { print $4; f = 1 } END { if (!f) print 0 }' "$TMP/st-$sf.txt"; }
		if [ "$sf" = on ]; then
			check "sendfile on: the worker calls sendfile()" [ "$(calls sendfile)" -gt 0 ]
		else
			check "sendfile off: no sendfile(), pread() instead" \
				[ "$(calls sendfile)" -eq 0 -a "$(calls pread64)" -gt 0 ]
		fi
	done
fi

# 2. Several workers, and one process (master_process off).
run workers --client none --workers 2
check "2 workers: a master and two workers" jq -e '.nginx.group == 3 and (.nginx.worker_cpus | length) == 2 and .body_ok' "$TMP/workers.json"
gone workers
run single --client none --master off
check "master_process off: one process serves" jq -e \
	'.nginx.group == 1 and (.nginx.config | test("master_process off;")) and .body_ok' "$TMP/single.json"
gone single

# 3. h2load (--h1) when installed.
if command -v h2load >/dev/null; then
	run h2load --client h2load --sendfile on --size 65536 --seconds 1 --connections 4
	check "h2load: HTTP/1.1, requests succeeded, none failed, only 2xx" jq -e \
		'.client | .application_protocol == "http/1.1" and .requests.succeeded > 0 and .requests.failed == 0
		 and .requests.errored == 0 and .status."4xx" == 0 and .status."5xx" == 0
		 and .traffic_bytes.data >= .requests.succeeded * 65536 and .time_for_request_us.min <= .time_for_request_us.max' \
		"$TMP/h2load.json"
	gone h2load
else
	echo "# h2load missing (make deps installs nghttp2-client): its checks skipped"
fi

# 4. HAProxy in HTTP mode in front of nginx, splicing and not.
if command -v haproxy >/dev/null; then
	for h in splice copy; do
		run "haproxy-$h" --client wrk --haproxy "$h" --size 65536 --seconds 1 --connections 4
		f=$TMP/haproxy-$h.json
		check "haproxy $h: mode http, a body through it equals the pattern" jq -e \
			'(.haproxy.config | test("\tmode http\n")) and .body_ok' "$f"
		check "haproxy $h: wrk through it, no error" jq -e "$wrk_sane" "$f"
		gone "haproxy-$h"
	done
	check "haproxy splice: splice-request/-response; copy: nosplice" bash -c \
		"jq -e '.haproxy.config | test(\"option splice-response\")' $TMP/haproxy-splice.json >/dev/null &&
		 jq -e '.haproxy.config | test(\"nosplice\")' $TMP/haproxy-copy.json >/dev/null"
else
	echo "# haproxy missing (make deps installs it): its checks skipped"
fi

# 5. Without nginx in PATH: a skip that names the package.
env PATH=/nonexistent "$(readlink -f "$try")" >"$TMP/missing.out" 2>&1
rc=$?
check "no nginx: exit 77 (got $rc), the reason names nginx-light" \
	grep -qx "skip: nginx not installed (apt-get install nginx-light)" "$TMP/missing.out"
[ "$rc" -eq 77 ] || bad "no nginx: exit $rc"
finish
