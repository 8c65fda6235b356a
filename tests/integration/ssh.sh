#!/usr/bin/env bash
# The ssh transport against a throwaway sshd on a loopback port: its own
# config (-f), host key and authorized key in a temp folder, stopped and
# removed afterwards; the system's sshd configuration is never touched.
# Source and sink run "remotely" over ssh, the proxy here; a smoke workload
# must move verified bytes, an unreachable host and a zcbench of another
# version must be refused with a clear error.
. "$(dirname "$0")/../lib.sh"
ZCBENCH=$(readlink -f "$ZCBENCH")
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || skip "$SSHD missing (openssh-server; make deps)"
[ "$(id -u)" -eq 0 ] || skip "needs root (sshd privilege separation)"
# Debian's sshd insists on its privilege separation folder (made by its service).
if [ ! -d /run/sshd ]; then
	mkdir -p -m 0755 /run/sshd && on_exit 'rmdir /run/sshd 2>/dev/null'
fi
sshd_pid=
stop_sshd() { [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null; }
on_exit stop_sshd
ssh-keygen -q -t ed25519 -N '' -f "$TMP/host_key" || fail "ssh-keygen host key"
ssh-keygen -q -t ed25519 -N '' -f "$TMP/id" || fail "ssh-keygen user key"
cp "$TMP/id.pub" "$TMP/authorized_keys"
user=$(id -un)
# A port below the ephemeral range: other tests' roles listen on ephemeral
# ones, and the run must reach this sshd, not one of them.
read -r eph_lo _ </proc/sys/net/ipv4/ip_local_port_range
for try in 1 2 3 4 5; do
	port=$((10000 + RANDOM % (eph_lo > 12000 ? eph_lo - 10000 : 2000)))
	cat >"$TMP/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $TMP/host_key
AuthorizedKeysFile $TMP/authorized_keys
PidFile $TMP/sshd.pid
AllowUsers $user
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 100
LogLevel VERBOSE
CFG
	"$SSHD" -D -e -f "$TMP/sshd_config" 2>"$TMP/sshd.log" &
	sshd_pid=$!
	echo "[127.0.0.1]:$port $(cat "$TMP/host_key.pub")" >"$TMP/known_hosts"
	for i in $(seq 50); do
		ssh -T -o BatchMode=yes -o LogLevel=ERROR -o UserKnownHostsFile="$TMP/known_hosts" \
			-i "$TMP/id" -p "$port" "$user@127.0.0.1" true 2>/dev/null && break 2
		kill -0 "$sshd_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; sshd_pid=
done
[ -n "$sshd_pid" ] || { cat "$TMP/sshd.log"; fail "throwaway sshd did not come up"; }

hostfile() { # $1 port, $2 exe; source and sink over ssh
	printf '[host]\nname = ssh-smoke\ntransport = ssh\n'
	for role in source sink; do
		printf '[%s]\nssh = %s@127.0.0.1\nssh_port = %s\nssh_identity = %s\nssh_known_hosts = %s\nexe = %s\n' \
			"$role" "$user" "$1" "$TMP/id" "$TMP/known_hosts" "$2"
	done
}
hostfile "$port" "$ZCBENCH" >"$TMP/ssh.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/ssh.ini" --out "$TMP/out" \
	--only proxy-copy --only src-send >"$TMP/run.log" 2>&1
rc=$?
f=$(ls "$TMP"/out/*.json 2>/dev/null | head -1)
if [ $rc -ne 0 ] || [ -z "$f" ]; then cat "$TMP/run.log" "$TMP/sshd.log"; fail "ssh smoke run exit $rc"; fi
ok=$(jq '[.runs[] | select(.status == "ok" and .verified and .summary.gbps.median > 0)] | length' "$f")
[ "$ok" = 2 ] || { cat "$TMP/run.log"; fail "expected 2 verified ok runs over ssh, got $ok"; }
# cpu = auto on an ssh role: the role placed itself on its own host.
jq -e '.runs[1] | (.placement.source.placed_by | test("the role")) and .samples[0].roles.source.cpu >= 0
	and (.samples[0].roles.source.nics.out.name == "lo") and .summary.gbps_per_core.median > 0' "$f" >/dev/null ||
	{ jq '.runs[1].placement' "$f"; fail "remote source placement/NIC/per-core figures"; }
ver=$(jq -r '.host.roles.sink.remote_version' "$f")
[ "$ver" = "$("$ZCBENCH" --version)" ] || fail "remote_version '$ver'"

# A remote role dies mid-run: the run fails and says which role, where.
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/ssh.ini" --out "$TMP/die" --only src-send \
	--duration=4 >"$TMP/die.log" 2>&1 &
run=$!
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
victim=
# Once the source runs too (it connects to the sink: under load that can take
# a while after the sink started), so the sink dies mid-run, not before.
for i in $(seq 200); do
	src=
	for p in $(descendants "$sshd_pid"); do
		{ tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qx sink && victim=$p
		{ tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qx source && src=$p
	done
	[ -n "$victim" ] && [ -n "$src" ] && break
	sleep 0.05
done
[ -n "$victim" ] || { kill $run 2>/dev/null; cat "$TMP/die.log" "$TMP/sshd.log"; fail "remote sink never started"; }
sleep 1
kill -KILL "$victim"
wait $run
rc=$?
reason=$(jq -r '.runs[0].reason' "$TMP"/die/*.json)
[ $rc -eq 1 ] && echo "$reason" | grep -q "sink: ssh to $user@127.0.0.1: .*remote role was killed" ||
	{ cat "$TMP/die.log"; fail "remote death: exit $rc, reason '$reason'"; }

# Unreachable: a port nobody listens on.
hostfile 1 "$ZCBENCH" >"$TMP/bad.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/bad.ini" --out "$TMP/out2" --only src-send \
	>"$TMP/bad.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "cannot reach $user@127.0.0.1" "$TMP/bad.log" ||
	{ cat "$TMP/bad.log"; fail "unreachable host: exit $rc"; }
# Another program than this zcbench at the remote path.
hostfile "$port" /bin/echo >"$TMP/ver.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$TMP/ver.ini" --out "$TMP/out3" --only src-send \
	>"$TMP/ver.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "build the same git sha" "$TMP/ver.log" ||
	{ cat "$TMP/ver.log"; fail "version mismatch not refused: exit $rc"; }
echo "ok: ssh smoke moved verified bytes; remote death, unreachable host, version mismatch reported"
