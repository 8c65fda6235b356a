#!/usr/bin/env bash
# Host files are checked before anything runs: a shell metacharacter in an
# ssh host name, a bad path or key is refused with file:line and exit 2.
set -u
ZCBENCH=${ZCBENCH:-bench/zcbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
expect() { # $1 line, $2 text in the message; the host file is $dir/h.ini
	"$ZCBENCH" run workloads/smoke.ini --host "$dir/h.ini" --out "$dir/out" >"$dir/log" 2>&1
	local rc=$?
	if [ $rc -ne 2 ] || ! grep -q "$dir/h.ini:$1: .*$2" "$dir/log"; then
		echo "FAIL: expected exit 2 and '$dir/h.ini:$1: ...$2', got exit $rc:"
		cat "$dir/h.ini" "$dir/log"
		exit 1
	fi
}
printf '[host]\ntransport = ssh\n[sink]\nssh = root@host;touch %s/pwned\n' "$dir" >"$dir/h.ini"
expect 4 "key 'ssh'.*character ';' not allowed"
printf '[host]\ntransport = ssh\n[sink]\nssh = root@$(reboot)\n' >"$dir/h.ini"
expect 4 "key 'ssh'"
printf '[host]\ntransport = ssh\n[source]\nssh = -oProxyCommand=x\n' >"$dir/h.ini"
expect 4 "key 'ssh'"
printf '[host]\ntransport = ssh\n[sink]\nssh = a@b\nexe = relative/zcbench\n' >"$dir/h.ini"
expect 5 "not an absolute path"
printf '[host]\nname = x\nnetem_loss = 1%%;ls\n' >"$dir/h.ini"
expect 3 "key 'netem_loss'"
printf '[host]\nmtu = 10\n' >"$dir/h.ini"
expect 2 "key 'mtu'"
printf '[host]\nplacement = far\n' >"$dir/h.ini"
expect 2 "key 'placement'"
printf '[sink]\ninterface = eth0 x\n' >"$dir/h.ini"
expect 2 "key 'interface'"
[ ! -e "$dir/pwned" ] || { echo "FAIL: a host-file value reached a shell"; exit 1; }
echo "ok: bad host files refused with file:line"
