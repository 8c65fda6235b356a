#!/usr/bin/env bash
# Host files are checked before anything runs: a shell metacharacter in an
# ssh host name, a bad path or key is refused with file:line and exit 2.
. "$(dirname "$0")/../lib.sh"
expect() { # $1 line, $2 text in the message; the host file is $TMP/h.ini
	"$ZCBENCH" run workloads/smoke.ini --host "$TMP/h.ini" --out "$TMP/out" >"$TMP/log" 2>&1
	local rc=$?
	if [ $rc -ne 2 ] || ! grep -q "$TMP/h.ini:$1: .*$2" "$TMP/log"; then
		cat "$TMP/h.ini" "$TMP/log"
		fail "expected exit 2 and '$TMP/h.ini:$1: ...$2', got exit $rc"
	fi
}
printf '[host]\ntransport = ssh\n[sink]\nssh = root@host;touch %s/pwned\n' "$TMP" >"$TMP/h.ini"
expect 4 "key 'ssh'.*character ';' not allowed"
printf '[host]\ntransport = ssh\n[sink]\nssh = root@$(reboot)\n' >"$TMP/h.ini"
expect 4 "key 'ssh'"
printf '[host]\ntransport = ssh\n[source]\nssh = -oProxyCommand=x\n' >"$TMP/h.ini"
expect 4 "key 'ssh'"
printf '[host]\ntransport = ssh\n[sink]\nssh = a@b\nexe = relative/zcbench\n' >"$TMP/h.ini"
expect 5 "not an absolute path"
printf '[host]\ntransport = netns\nname = x\nnetem_loss = 1%%;ls\n' >"$TMP/h.ini"
expect 4 "key 'netem_loss'.*character ';' not allowed"
printf '[host]\ntransport = netns\nmtu = 10\n' >"$TMP/h.ini"
expect 3 "key 'mtu': 10 is out of range"
# A transport owns its keys: one of another transport's is refused by name.
printf '[host]\nmtu = 9000\n' >"$TMP/h.ini"
expect 2 "key 'mtu' needs transport = netns"
printf '[host]\ntransport = netns\n[sink]\nssh = a@b\n' >"$TMP/h.ini"
expect 4 "key 'ssh' needs transport = ssh"
printf '[host]\nplacement = far\n' >"$TMP/h.ini"
expect 2 "key 'placement'"
printf '[sink]\ninterface = eth0 x\n' >"$TMP/h.ini"
expect 2 "key 'interface'"
[ ! -e "$TMP/pwned" ] || fail "a host-file value reached a shell"
echo "ok: bad host files refused with file:line"

# Real-interface keys on this machine's loopback: an interface without an
# address gets its address; bind_device really binds (a missing device fails
# the run); placement = remote on one NUMA node is "not applicable", not faked.
printf '[host]\nname = lo-bound\n[source]\ninterface = lo\nbind_device = yes\n[sink]\ninterface = lo\nbind_device = yes\n' >"$TMP/lo.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/lo.ini" --out "$TMP/lo" --only src-send >"$TMP/lo.log" 2>&1 ||
	{ cat "$TMP/lo.log"; fail "bound loopback run"; }
nic=$(jq -c '.runs[0].samples[0].roles.sink.nics.in | [.name, .virtual, .local_address]' "$TMP"/lo/*.json)
[ "$nic" = '["lo",true,"127.0.0.1"]' ] || fail "sink NIC $nic"
printf '[host]\nname = bad-bound\naddress = 127.0.0.1\n[sink]\ninterface = zcnope0\nbind_device = yes\n' >"$TMP/nodev.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/nodev.ini" --out "$TMP/nodev" --only src-send >"$TMP/nodev.log" 2>&1
reason=$(jq -r '.runs[0].reason' "$TMP"/nodev/*.json)
echo "$reason" | grep -q "No such device" || fail "bind to a missing device: '$reason'"
if [ "$(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l)" -le 1 ]; then
	printf '[host]\nname = remote\nplacement = remote\n' >"$TMP/remote.ini"
	"$ZCBENCH" run workloads/smoke.ini --host "$TMP/remote.ini" --out "$TMP/remote" --only proxy-copy \
		>"$TMP/remote.log" 2>&1 || { rc=$?; cat "$TMP/remote.log"; fail "placement = remote run exit $rc"; }
	st=$(jq -r '.runs[0] | .status + ": " + .reason' "$TMP"/remote/*.json)
	[ "$st" = "unavailable: placement = remote: not applicable, this machine has one NUMA node" ] ||
		fail "placement = remote on one node: $st"
fi
echo "ok: interface/bind_device/placement keys behave"
