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
printf '[host]\ntransport = netns\nname = x\nnetem_loss = 1%%;ls\n' >"$dir/h.ini"
expect 4 "key 'netem_loss'.*character ';' not allowed"
printf '[host]\ntransport = netns\nmtu = 10\n' >"$dir/h.ini"
expect 3 "key 'mtu': 10 is out of range"
# A transport owns its keys: one of another transport's is refused by name.
printf '[host]\nmtu = 9000\n' >"$dir/h.ini"
expect 2 "key 'mtu' needs transport = netns"
printf '[host]\ntransport = netns\n[sink]\nssh = a@b\n' >"$dir/h.ini"
expect 4 "key 'ssh' needs transport = ssh"
printf '[host]\nplacement = far\n' >"$dir/h.ini"
expect 2 "key 'placement'"
printf '[sink]\ninterface = eth0 x\n' >"$dir/h.ini"
expect 2 "key 'interface'"
[ ! -e "$dir/pwned" ] || { echo "FAIL: a host-file value reached a shell"; exit 1; }
echo "ok: bad host files refused with file:line"

# Real-interface keys on this machine's loopback: an interface without an
# address gets its address; bind_device really binds (a missing device fails
# the run); placement = remote on one NUMA node is "not applicable", not faked.
command -v jq >/dev/null || { echo "skip: jq missing for the run checks (make deps)"; exit 77; }
printf '[host]\nname = lo-bound\n[source]\ninterface = lo\nbind_device = yes\n[sink]\ninterface = lo\nbind_device = yes\n' >"$dir/lo.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/lo.ini" --out "$dir/lo" --only src-send >"$dir/lo.log" 2>&1 ||
	{ echo "FAIL: bound loopback run"; cat "$dir/lo.log"; exit 1; }
nic=$(jq -c '.runs[0].samples[0].roles.sink.nics.in | [.name, .virtual, .local_address]' "$dir"/lo/*.json)
[ "$nic" = '["lo",true,"127.0.0.1"]' ] || { echo "FAIL: sink NIC $nic"; exit 1; }
printf '[host]\nname = bad-bound\naddress = 127.0.0.1\n[sink]\ninterface = zcnope0\nbind_device = yes\n' >"$dir/nodev.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/nodev.ini" --out "$dir/nodev" --only src-send >"$dir/nodev.log" 2>&1
reason=$(jq -r '.runs[0].reason' "$dir"/nodev/*.json)
echo "$reason" | grep -q "No such device" || { echo "FAIL: bind to a missing device: '$reason'"; exit 1; }
if [ "$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)" -le 1 ]; then
	printf '[host]\nname = remote\nplacement = remote\n' >"$dir/remote.ini"
	"$ZCBENCH" run workloads/smoke.ini --host "$dir/remote.ini" --out "$dir/remote" --only proxy-copy \
		>"$dir/remote.log" 2>&1 || { echo "FAIL: placement = remote run exit $?"; cat "$dir/remote.log"; exit 1; }
	st=$(jq -r '.runs[0] | .status + ": " + .reason' "$dir"/remote/*.json)
	[ "$st" = "unavailable: placement = remote: not applicable, this machine has one NUMA node" ] ||
		{ echo "FAIL: placement = remote on one node: $st"; exit 1; }
fi
echo "ok: interface/bind_device/placement keys behave"
